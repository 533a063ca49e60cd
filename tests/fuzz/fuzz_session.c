/*
 * fuzz_session.c - libFuzzer harness: the session's timeline under any
 * sequence of operations. Each input byte picks an operation (forward,
 * back, advance, reset, engine switch, kick, parameter changes, border,
 * the live edits: add, remove, move, velocity, mass, radius, gestures and
 * groups), the following bytes its ball and values (a small menu of
 * ordinary and extreme numbers). After each operation the session must
 * hold together: finite time, ball count within bounds, every tag and slot
 * readable, the diagnostics computable; then it is walked all the way back
 * and forward again.
 */
#include "session.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const double vals[16] = {0, 1, -1, 0.5, 20, 400, 799, -5, 1e-9, 1e9, -1e9,
                                1e300, -1e300, 1e-300, 3, 100};

static double val(const uint8_t *d, size_t n, size_t *i)
{
    return *i < n ? vals[d[(*i)++] & 15] : 1;
}

/* The front end's clock: a few chunks of steps or events, then stop (as
 * a terminal does when its frame time is up). */
static int more(void *arg)
{
    return ++*(int *)arg < 20;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct sim_params p = sim_default_params();
    struct sim s;
    if (sim_init(&s, 3, &p))
        return 0;
    double init[3][6] = {{100, 200, 3, 0, 1, 20}, {300, 200, 0, 0, 2, 20},
                         {600, 100, -1, 2, 1, 10}};
    for (int i = 0; i < 3; i++) {
        s.x[i] = init[i][0];
        s.y[i] = init[i][1];
        s.vx[i] = init[i][2];
        s.vy[i] = init[i][3];
        s.m[i] = init[i][4];
        s.r[i] = init[i][5];
    }
    struct session ss;
    if (session_init(&ss, &s)) {
        sim_free(&s);
        return 0;
    }
    sim_free(&s);
    size_t i = 0, ops = 0;
    while (i < size && ops++ < 200) {
        uint8_t op = data[i++];
        size_t b = i < size ? data[i++] % 5 : 0; /* past the count: refused */
        double a = val(data, size, &i), c = val(data, size, &i);
        switch (op % 24) {
        case 0: case 1: case 2: session_forward(&ss); break;
        case 3: case 4: session_back(&ss); break;
        case 5: {
            int calls = 0;
            session_advance(&ss, ss.s.t + fabs(a), more, &calls);
            break;
        }
        case 6: session_reset(&ss); break;
        case 7: session_set_engine(&ss, (op >> 5) & 1); break;
        case 8: session_kick(&ss, b, a, c); break;
        case 9: session_set_k(&ss, a); break;
        case 10: session_set_dt(&ss, fabs(a) > 1 ? 0.05 : a); break;
        case 11: session_set_gravity(&ss, a, c); break;
        case 12: session_set_restitution(&ss, a); break;
        case 13: session_set_border(&ss, (op >> 5) & 1, (op >> 6) & 1, (unsigned)(op >> 5)); break;
        case 14: session_add_ball(&ss, a, c, val(data, size, &i), 0, val(data, size, &i),
                                  val(data, size, &i), (uint32_t)op); break;
        case 15: session_remove_ball(&ss, b); break;
        case 16: session_move(&ss, b, a, c, op >> 7); break;
        case 17: session_set_velocity(&ss, b, a, c); break;
        case 18: session_set_mass(&ss, b, a); break;
        case 19: session_set_radius(&ss, b, a); break;
        case 20: session_gesture(&ss, op >> 7); break;
        case 21: session_group(&ss, op >> 7); break;
        case 22: {
            struct sim_params q = ss.s.p;
            q.friction = (op >> 5) & 3; /* what ':friction' could give */
            q.friction_c = fabs(a) > 0 ? fabs(a) : 1;
            q.gx = c;
            q.gy = a;
            q.open = (op >> 4) & 15;
            session_set_params(&ss, &q);
            break;
        }
        default: /* the plots' sampling on or off, or the diagnostics */
            if (op >> 7)
                session_sampling(&ss, (op >> 6) & 1);
            else
                session_diag(&ss);
            break;
        }
        if (!(ss.s.t == ss.s.t) || ss.s.n > 1000)
            __builtin_trap();
        for (size_t k = 0; k < ss.s.n; k++) {
            (void)session_tag(&ss, k);
            if (session_slot(&ss, k) >= ss.s.n)
                __builtin_trap();
        }
        /* the plots' envelope: bounded, each column a sample or more,
         * its least never above its greatest */
        if (session_columns(&ss) > SESSION_COLS)
            __builtin_trap();
        for (size_t k = 0; k < session_columns(&ss); k++) {
            const struct session_col *col = session_column(&ss, k);
            if (col->count < 1)
                __builtin_trap();
            for (int ch = 0; ch < SESSION_NCH; ch++)
                if (col->lo[ch] > col->hi[ch])
                    __builtin_trap();
        }
    }
    session_gesture(&ss, 0);
    session_group(&ss, 0);
    for (int k = 0; k < 100000 && session_back(&ss) == 0; k++)
        ;
    for (int k = 0; k < 50; k++)
        session_forward(&ss);
    session_free(&ss);
    return 0;
}
