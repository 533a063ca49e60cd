/*
 * fuzz_command.c - libFuzzer harness: the ':' command line (command_parse
 * over scene_parse_line) against a small state, then each accepted edit
 * applied to a session, stepped, undone and redone; and the line editor
 * fed the same bytes as keys.
 */
#include "command.h"
#include "session.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char line[COMMAND_MAX + 1];
    size_t n = size < COMMAND_MAX ? size : COMMAND_MAX;
    memcpy(line, data, n);
    line[n] = 0;
    struct sim_params p = sim_default_params();
    struct sim s;
    if (sim_init(&s, 2, &p))
        return 0;
    double init[2][6] = {{100, 200, 3, 0, 1, 20}, {300, 200, 0, 0, 2, 20}};
    for (int i = 0; i < 2; i++) {
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
    struct command c;
    char err[256];
    if (command_parse(&c, line, &ss.s, err, sizeof err) == 0) {
        if (c.kind == COMMAND_PARAMS)
            session_set_params(&ss, &c.p);
        else if (c.kind == COMMAND_BALLS && c.n <= 100) {
            /* as the front end adds them: all at once */
            struct session_ball nb[100];
            for (size_t i = 0; i < c.n; i++)
                nb[i] = (struct session_ball){c.balls[i].x, c.balls[i].y, c.balls[i].vx,
                                              c.balls[i].vy, c.balls[i].m, c.balls[i].r,
                                              (uint32_t)i};
            session_add_balls(&ss, nb, c.n);
        }
        else if (c.kind == COMMAND_MASS)
            session_set_mass(&ss, 0, c.a);
        else if (c.kind == COMMAND_RADIUS)
            session_set_radius(&ss, 0, c.a);
        else if (c.kind == COMMAND_VELOCITY)
            session_set_velocity(&ss, 0, c.a, c.b);
        else if (c.kind == COMMAND_POSITION)
            session_move(&ss, 0, c.a, c.b, 0);
        else if (c.kind == COMMAND_DELETE)
            session_remove_ball(&ss, 0);
        for (int i = 0; i < 5; i++)
            session_forward(&ss);
        while (session_back(&ss) == 0)
            ;
        for (int i = 0; i < 6; i++)
            session_forward(&ss);
        command_free(&c);
    } else if (!err[0]) {
        __builtin_trap(); /* a refusal always says why */
    }
    session_free(&ss);
    static struct command_line cl;
    command_open(&cl);
    for (size_t i = 0; i < size; i++) {
        int k = data[i] < 12 ? -1 - (int)data[i] : data[i];
        command_key(&cl, k);
        if (cl.len > COMMAND_MAX || cl.cur > cl.len || strlen(cl.buf) != cl.len)
            __builtin_trap();
    }
    return 0;
}
