/*
 * lesson_panel.h - a lesson in the front end: which step is shown, its
 * answer once revealed, and the lesson panel (a panel of the panel class,
 * screen.h) that shows them: "lesson: TITLE  step N/M" on its frame, the
 * step's title, its text, the question and the answer with the value
 * measured when it was revealed, and the keys that go on.
 *
 * Pure C11: no curses, no I/O. Going to a step (the scene again, the keys
 * of the steps before it, then its own) is the front end's.
 */
#ifndef LESSON_PANEL_H
#define LESSON_PANEL_H

#include "lesson.h"
#include "screen.h"

#include <stddef.h>

struct sim;

/// The width the panel asks for beside the table (a column), in cells; its
/// height is the lesson's tallest step's, so that the table keeps its size.
#define LESSON_PANEL_W 66

/// A lesson as the front end shows it.
struct lesson_view {
    const struct lesson *ls; ///< the lesson, or NULL: no panel
    size_t step;             ///< the step shown (0-based, < ls->nstep)
    int revealed;            ///< 1: its answer shows
    int fail;                ///< enum lesson_fail of the answer
    double value;            ///< the answer measured when it was revealed
    /* the front end's (tutor.h) */
    const char *name;        ///< the name the front end was started with
    int playing;             ///< a step's keys are being played at once
    int demo;                ///< the front end's script is a step's keys (a demo)
};

/// What the next key (PgDn, l) does at this point of the lesson.
enum lesson_next {
    LESSON_NEXT_REVEAL = 0, ///< the step asks and its answer is not shown yet
    LESSON_NEXT_STEP = 1,   ///< on to the next step
    LESSON_NEXT_END = 2,    ///< the last step, answered: nothing further
};

/// What PgDn or l does now (enum lesson_next).
int lesson_view_next(const struct lesson_view *lv);

/// Shows step @p step (0-based): its answer hidden.
void lesson_view_goto(struct lesson_view *lv, size_t step);

/// Reveals the step's answer, measured in state @p now (the session's
/// observed state: what the values panel shows), moved from @p start (the
/// state reset returns to). The front end hands them over (tutor.c): the
/// lesson's files, as the drawing, never reach the session.
/// Nothing when the step asks nothing. @return 1 when there was a question.
int lesson_view_reveal(struct lesson_view *lv, const struct sim *now, const struct sim *start);

/// The answer line as the panel shows it ("ball 2 vx = 5.0002", or why
/// there is no value), with @p utf8 Greek sums, into @p buf. @return buf.
const char *lesson_view_answer(const struct lesson_view *lv, char *buf, size_t size,
                               int utf8);

/// The lesson panel's class; its state is a struct lesson_view.
extern const struct panel_class lesson_panel_class;

#endif
