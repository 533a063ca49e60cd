/*
 * lesson.h - lessons: a scene and the steps a teacher walks a class
 * through, read from text like a scene file.
 *
 *     # a comment
 *     lesson Momentum in one dimension
 *     scene ../headon.scene          (or the scene's own directives)
 *     dt 0.01                        (scene directives, applied after it)
 *     step Equal masses
 *     say Ball 1 (1 kg) at 10 meets ball 2 (1 kg) at rest.
 *     say Predict: what does each ball do after the collision?
 *     keys space <t 30> space
 *     ask What is ball 2's vx now? = vx 2
 *
 * The first directive is `lesson TITLE`. Before the first step come
 * `scene FILE` (a scene file in any format, relative to the lesson's own
 * directory) and scene directives (scene.h), or the scene's directives
 * alone. A step is `step TITLE`, then in any order up to LESSON_SAY_MAX
 * `say TEXT` lines (a `say` alone is an empty line), `keys KEYS` lines
 * (a key script, script.h: they join into one) and at most one
 * `ask QUESTION = QUANTITY` (the quantity after the last '='). Titles,
 * text and questions are taken as written ('#' in them is no comment).
 *
 * Quantities (names in any case; N and M ball numbers from 1, in scene
 * order): x N, y N, vx N, vy N, v N (speed), px N, py N, KE N, m N,
 * moved N (distance from where the ball was at the start), angle N M (between
 * the velocities of N and M, degrees); the totals px, py (sums), p (the
 * length of the sum), KE, PE, E, dissipated, contacts (touching pairs),
 * t, kT (KE per ball: the temperature of a 2-D gas), cmvx, cmvy (the
 * centre of mass's velocity). lesson_measure computes them from a state
 * as the values panel does (lab.h).
 *
 * Pure C11 and libm: no I/O. Reading `scene FILE` is the caller's: it
 * gets the path from lesson_file_path, parses the file (formats.h) and
 * hands the scene to lesson_scene.
 */
#ifndef LESSON_H
#define LESSON_H

#include "text.h" /* struct scene_error */

#include <stddef.h>

struct scene;
struct sim;

/// Steps a lesson may have, and lines of text a step may say.
#define LESSON_STEPS_MAX 99
#define LESSON_SAY_MAX 12
/// Bytes a title, a line of text or a question may have.
#define LESSON_LINE_MAX 200

/// What a question measures.
enum lesson_what {
    /* of one ball (ball) */
    LESSON_X = 0, LESSON_Y, LESSON_VX, LESSON_VY, LESSON_SPEED, LESSON_PX, LESSON_PY,
    LESSON_KE_BALL, LESSON_M, LESSON_MOVED,
    /* of two balls (ball, ball2) */
    LESSON_ANGLE,
    /* of the whole state */
    LESSON_SUM_PX, LESSON_SUM_PY, LESSON_SUM_P, LESSON_KE, LESSON_PE, LESSON_E,
    LESSON_DISSIPATED, LESSON_CONTACTS, LESSON_T, LESSON_KT, LESSON_CMVX, LESSON_CMVY,
    LESSON_NWHAT
};

/// A quantity: what, and of which balls (0-based scene indices).
struct lesson_quantity {
    int what;      ///< enum lesson_what
    size_t ball;   ///< the ball, for the quantities of one or two balls
    size_t ball2;  ///< the second ball of LESSON_ANGLE
};

/// One step of a lesson. Strings are NUL-terminated and owned.
struct lesson_step {
    char *title;   ///< never NULL
    char *text;    ///< the say lines joined by '\n', or NULL when none
    int nlines;    ///< say lines
    char *keys;    ///< the keys lines joined by ' ', or NULL when none
    char *ask;     ///< the question, or NULL when none
    struct lesson_quantity q; ///< the answer's quantity, when ask
    int line;      ///< the step line's number
    int ask_line;  ///< the ask line's number, when ask
};

/// A parsed lesson.
struct lesson {
    char *title;            ///< the lesson line's title
    char *scene_file;       ///< `scene FILE` as written, or NULL
    int scene_line;         ///< its line
    char *text;             ///< the lesson's text up to the first step, lines
                            ///< ending in LF, the lesson and scene lines
                            ///< blanked: the scene's directives where they stand
    size_t text_len;
    struct lesson_step *step;
    size_t nstep;           ///< 1 .. LESSON_STEPS_MAX
};

/// 1 when @p text is a lesson: its first line that is not blank or a
/// comment starts with the word "lesson".
int lesson_detect(const char *text, size_t len);

/// Parses @p len bytes of lesson text (a UTF-8 byte order mark skipped;
/// lines may end in LF, CR LF or CR) into @p ls. The steps' keys are
/// checked as key scripts; the scene is not built (lesson_scene).
/// @return 0, or -1 with @p err filled in and nothing left to free.
int lesson_parse(struct lesson *ls, const char *text, size_t len, struct scene_error *err);

/// Frees what lesson_parse allocated (safe on a zeroed struct).
void lesson_free(struct lesson *ls);

/// The path of the lesson's scene file: ls->scene_file as it stands when
/// absolute, else relative to the directory of @p lesson_path (the path
/// the lesson was read from; "-" or NULL: the working directory).
/// @return a new string (free it), or NULL when memory is short.
char *lesson_file_path(const struct lesson *ls, const char *lesson_path);

/// Builds the lesson's scene into @p sc. Without `scene FILE`, from the
/// lesson's directives (sc->format SCENE_FORMAT_LESSON, which formats_write
/// writes as a native scene). With it, @p sc holds the file's scene,
/// parsed by the caller (formats_parse, any format), and each scene
/// directive of the lesson is applied on top as a line of the scene
/// (scene_parse_line); on an error sc is freed.
/// @return 0, or -1 with @p err filled in (a line of the lesson) and
/// nothing left to free.
int lesson_scene(const struct lesson *ls, struct scene *sc, struct scene_error *err);

/// The formats table's row (formats.h): the scene of a lesson given as
/// text alone, which has no file to read `scene FILE` from (an error).
int lesson_parse_scene(struct scene *sc, const char *text, size_t len,
                       struct scene_error *err);

/// Why lesson_measure gave no value.
enum lesson_fail {
    LESSON_OK = 0,
    LESSON_NO_BALL = 1,  ///< a ball it names is not there (removed)
    LESSON_AT_REST = 2,  ///< an angle with a ball at rest
    LESSON_NO_VALUE = 3, ///< the state is empty or not finite
};

/// Measures @p q in the state @p now (the observed state: what the values
/// panel shows), @p start the state the run started from (for moved).
/// @return LESSON_OK with *out set, or an enum lesson_fail.
int lesson_measure(const struct lesson_quantity *q, const struct sim *now,
                   const struct sim *start, double *out);

/// The quantity in words for the answer line: "ball 2 vx", "sum px" (with
/// @p utf8 "Σpx"), "angle of v1, v2", into @p buf. @return buf.
const char *lesson_quantity_name(const struct lesson_quantity *q, char *buf, size_t size,
                                 int utf8);

/// A measured value as the answer shows it: four decimals ("-5.0022",
/// "90.0000"), a value that rounds to zero as "0.0000", magnitudes from
/// 10^5 on in %.6g. @return buf.
const char *lesson_value_text(double v, char *buf, size_t size);

/// The quantity names a question may use, for messages ("x, y, vx, ...").
const char *lesson_quantity_names(void);

#endif
