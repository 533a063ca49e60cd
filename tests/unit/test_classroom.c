/*
 * test_classroom.c - the lab through the session: restitution and the
 * border as actions on the timeline (replayed after stepping back, both
 * engines), contact events found by stepping the session forward and back
 * (] and [), and the worksheet with keys alone: the oblique
 * collision of unequal masses, elastic then at restitution 0.5.
 */
#include "lab.h"
#include "scene.h"
#include "session.h"
#include "sim.h"
#include "test.h"

#include <string.h>

static const struct sim *fwd(void *ctx)
{
    struct session *ss = ctx;
    return session_forward(ss) == 1 ? &ss->s : NULL;
}

static const struct sim *back(void *ctx)
{
    struct session *ss = ctx;
    return session_back(ss) == 0 ? &ss->s : NULL;
}

static const char *unequal =
    "table 800 400\nball 200 180 10 0 1 15\nball 450 200 0 0 3 25\n";

static void test_restitution_action(void)
{
    struct session ss;
    CHECK(test_start(&ss, unequal) == 0);
    for (int i = 0; i < 100; i++)
        session_forward(&ss);
    CHECK(session_set_restitution(&ss, 0.5) == 0 && ss.s.p.restitution == 0.5);
    CHECK(session_set_restitution(&ss, -0.1) == -1 && ss.msg != NULL);
    CHECK(session_set_restitution(&ss, 1.5) == -1 && ss.s.p.restitution == 0.5);
    for (int i = 0; i < 400; i++)
        session_forward(&ss);
    struct sim after;
    CHECK(sim_init(&after, ss.s.n, &ss.s.p) == 0);
    sim_copy(&after, &ss.s);
    /* back over the change and forward again: the same run, e 0.5 again */
    for (int i = 0; i < 450; i++)
        session_back(&ss);
    CHECK(ss.s.p.restitution == 1);
    for (int i = 0; i < 450; i++)
        session_forward(&ss);
    CHECK(ss.s.p.restitution == 0.5);
    int same = 1;
    for (size_t i = 0; i < ss.s.n; i++)
        same &= ss.s.x[i] == after.x[i] && ss.s.vx[i] == after.vx[i];
    CHECK(same);
    sim_free(&after);
    /* the event engine takes it too */
    CHECK(session_set_engine(&ss, SESSION_EVENT) == 0);
    CHECK(session_set_restitution(&ss, 0.8) == 0 && ss.ev.p.restitution == 0.8);
    /* but not sticky collisions */
    CHECK(session_set_restitution(&ss, 0) == -1 && ss.ev.p.restitution == 0.8);
    session_free(&ss);
}

static void test_border_action(void)
{
    struct session ss;
    CHECK(test_start(&ss, "table 800 400\nball 700 200 10 0 1 20\n") == 0);
    /* hard walls: an exact reflection, the speed kept bit for bit */
    CHECK(session_set_border(&ss, SIM_RECT, SIM_WALLS_HARD, 0) == 0);
    CHECK(lab_border(&ss.s.p) == LAB_BORDER_HARD);
    for (int i = 0; i < 400; i++)
        session_forward(&ss);
    CHECK(ss.s.vx[0] == -10);
    /* no walls: the ball leaves the table */
    session_reset(&ss); /* the border kept (issue 42.4) */
    CHECK(ss.s.p.walls == SIM_WALLS_HARD && ss.s.x[0] == 700 && ss.s.vx[0] == 10);
    session_forward(&ss); /* the change is made at position 1 */
    CHECK(session_set_border(&ss, SIM_RECT, SIM_WALLS_SPRING, 15) == 0);
    CHECK(lab_border(&ss.s.p) == LAB_BORDER_NONE);
    for (int i = 0; i < 400; i++)
        session_forward(&ss);
    CHECK(ss.s.x[0] > 800 && ss.s.vx[0] == 10);
    /* back over the change: the walls come back */
    for (int i = 0; i < 401; i++)
        session_back(&ss);
    CHECK(ss.s.p.shape == SIM_RECT && ss.s.p.open == 0);
    /* the event engine runs no walls too (open sides): the ball flies off
     * and is counted out; open space (no table) it refuses */
    CHECK(session_set_engine(&ss, SESSION_EVENT) == 0);
    CHECK(session_set_border(&ss, SIM_RECT, SIM_WALLS_SPRING, 15) == 0);
    CHECK(session_forward(&ss) == 0); /* no more events: none ever */
    CHECK(session_advance(&ss, 20, NULL, NULL) >= 0);
    CHECK(ss.s.x[0] == 900 && ss.s.vx[0] == 10 && session_diag(&ss)->out == 1);
    CHECK(session_set_border(&ss, SIM_OPEN, SIM_WALLS_SPRING, 0) == -1);
    CHECK(!ss.msg && ss.note == SESSION_NOTE_NEEDS_SPRINGS &&
          strcmp(ss.note_what, "open space") == 0);
    CHECK(session_set_border(&ss, SIM_RECT, SIM_WALLS_HARD, 0) == 0);
    session_free(&ss);
}

/* ] and [ through the session: the contact begins, ends, and back. */
static void test_seek_session(void)
{
    struct session ss;
    CHECK(test_start(&ss, "table 800 400\nball 250 200 10 0 1 20\nball 550 200 -10 0 1 20\n") == 0);
    struct lab_event ev;
    CHECK(lab_seek_event(&ss.s, fwd, &ss, 20000, &ev) == 0);
    CHECK(ev.found && ev.began == 1 && (ev.steps == 260 || ev.steps == 261));
    long long at = ss.s.steps;
    CHECK(lab_seek_event(&ss.s, fwd, &ss, 20000, &ev) == 0);
    CHECK(ev.found && ev.ended == 1);
    /* [ goes back to the last step of the contact, then before it */
    CHECK(lab_seek_event(&ss.s, back, &ss, 20000, &ev) == 0);
    CHECK(ev.found && ev.began == 1 && ev.steps == 1);
    CHECK(lab_seek_event(&ss.s, back, &ss, 20000, &ev) == 0);
    CHECK(ev.found && ev.ended == 1 && ss.s.steps == at - 1);
    session_free(&ss);
}

/* The worksheet, with the session as the keys drive it. */
static void test_worksheet_keys(void)
{
    for (int inel = 0; inel <= 1; inel++) {
        struct session ss;
        CHECK(test_start(&ss, unequal) == 0);
        if (inel) { /* e pressed five times */
            double e = ss.s.p.restitution;
            for (int i = 0; i < 5; i++)
                e = lab_restitution_step(e, -1);
            CHECK(session_set_restitution(&ss, e) == 0);
        }
        const struct session_diag *d = session_diag(&ss);
        double px0 = d->px, py0 = d->py, ke0 = d->ke;
        struct lab_event ev;
        CHECK(lab_seek_event(&ss.s, fwd, &ss, 20000, &ev) == 0 && ev.found);
        /* at the contact: its overlap and k s */
        struct lab_contact c[2];
        CHECK(lab_contacts(&ss.s, 0, c, 2) == 1 && c[0].s > 0);
        CHECK(c[0].fs == ss.s.p.k * c[0].s);
        /* step through it with . until it ends */
        int steps = 0;
        struct lab_pairs ps = {0};
        do {
            session_forward(&ss);
            steps++;
            lab_touching(&ss.s, &ps);
        } while (ps.n > 0 && steps < 1000);
        lab_pairs_free(&ps);
        CHECK(steps > 15 && steps < 40);
        d = session_diag(&ss);
        CHECK_NEAR(d->px, px0, 1e-12);
        CHECK_NEAR(d->py, py0, 1e-12);
        if (inel)
            CHECK(d->ke < 0.7 * ke0 && d->dissipated > 0.3 * ke0);
        else
            CHECK_NEAR(d->ke, ke0, 1e-3 * ke0);
        session_free(&ss);
    }
}

void test_classroom(void)
{
    test_restitution_action();
    test_border_action();
    test_seek_session();
    test_worksheet_keys();
}
