/*
 * lesson_measure.c - a lesson's answers: a question's quantity measured
 * from a state, its name and its value as text (see lesson.h).
 */
#include "lesson.h"

#include "lab.h"
#include "sim.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int lesson_measure(const struct lesson_quantity *q, const struct sim *now,
                   const struct sim *start, double *out)
{
    int what = q->what;
    if (what <= LESSON_ANGLE) {
        if (q->ball >= now->n || (what == LESSON_ANGLE && q->ball2 >= now->n))
            return LESSON_NO_BALL;
        struct lab_row r;
        lab_row(now, q->ball, &r);
        double v;
        switch (what) {
        case LESSON_X: v = r.x; break;
        case LESSON_Y: v = r.y; break;
        case LESSON_VX: v = r.vx; break;
        case LESSON_VY: v = r.vy; break;
        case LESSON_SPEED: v = r.speed; break;
        case LESSON_PX: v = r.px; break;
        case LESSON_PY: v = r.py; break;
        case LESSON_KE_BALL: v = r.ke; break;
        case LESSON_M: v = r.m; break;
        case LESSON_MOVED: {
            if (!start || q->ball >= start->n)
                return LESSON_NO_BALL;
            struct lab_row r0;
            lab_row(start, q->ball, &r0);
            v = hypot(r.x - r0.x, r.y - r0.y);
            break;
        }
        default: { /* LESSON_ANGLE */
            struct lab_row r2;
            lab_row(now, q->ball2, &r2);
            if (!(r.speed > 0) || !(r2.speed > 0))
                return LESSON_AT_REST;
            double c = (r.vx * r2.vx + r.vy * r2.vy) / (r.speed * r2.speed);
            v = acos(c > 1 ? 1 : c < -1 ? -1 : c) * (180 / SIM_PI);
            break;
        }
        }
        if (!isfinite(v))
            return LESSON_NO_VALUE;
        *out = v;
        return LESSON_OK;
    }
    struct lab_totals t;
    lab_sums(now, &t);
    struct sim_diag d;
    memset(&d, 0, sizeof d);
    if (what == LESSON_PE || what == LESSON_E || what == LESSON_DISSIPATED ||
        what == LESSON_CONTACTS) {
        if (sim_diag(now, &d) != SIM_OK)
            return LESSON_NO_VALUE;
    }
    double v;
    switch (what) {
    case LESSON_SUM_PX: v = lab_round_total(t.px, t.apx, t.n); break;
    case LESSON_SUM_PY: v = lab_round_total(t.py, t.apy, t.n); break;
    case LESSON_SUM_P:
        v = hypot(lab_round_total(t.px, t.apx, t.n), lab_round_total(t.py, t.apy, t.n));
        break;
    case LESSON_KE: v = t.ke; break;
    case LESSON_PE: v = d.pe; break;
    case LESSON_E: v = d.e; break;
    case LESSON_DISSIPATED: v = d.dissipated; break;
    case LESSON_CONTACTS: v = (double)d.contacts; break;
    case LESSON_T: v = now->t; break;
    case LESSON_KT:
        if (now->n == 0)
            return LESSON_NO_VALUE;
        v = t.ke / (double)now->n;
        break;
    case LESSON_CMVX: v = t.cvx; break;
    case LESSON_CMVY: v = t.cvy; break;
    default: return LESSON_NO_VALUE;
    }
    if (!isfinite(v))
        return LESSON_NO_VALUE;
    *out = v;
    return LESSON_OK;
}

const char *lesson_quantity_name(const struct lesson_quantity *q, char *buf, size_t size,
                                 int utf8)
{
    static const char *const ball_names[] = {"x", "y", "vx", "vy", "speed v", "px", "py",
                                             "KE", "m", "distance moved"};
    const char *sum = utf8 ? "\xce\xa3" : "sum ";
    switch (q->what) {
    case LESSON_ANGLE:
        snprintf(buf, size, "angle between v%zu and v%zu (degrees)", q->ball + 1, q->ball2 + 1);
        break;
    case LESSON_SUM_PX: snprintf(buf, size, "%spx", sum); break;
    case LESSON_SUM_PY: snprintf(buf, size, "%spy", sum); break;
    case LESSON_SUM_P: snprintf(buf, size, "|%sp|", sum); break;
    case LESSON_KE: snprintf(buf, size, "%sKE", sum); break;
    case LESSON_PE: snprintf(buf, size, "PE"); break;
    case LESSON_E: snprintf(buf, size, "E"); break;
    case LESSON_DISSIPATED: snprintf(buf, size, "energy dissipated"); break;
    case LESSON_CONTACTS: snprintf(buf, size, "contacts"); break;
    case LESSON_T: snprintf(buf, size, "t"); break;
    case LESSON_KT: snprintf(buf, size, "kT = %sKE / N", sum); break;
    case LESSON_CMVX: snprintf(buf, size, "centre of mass vx"); break;
    case LESSON_CMVY: snprintf(buf, size, "centre of mass vy"); break;
    default:
        if (q->what >= 0 && q->what < LESSON_ANGLE)
            snprintf(buf, size, "ball %zu %s", q->ball + 1, ball_names[q->what]);
        else
            snprintf(buf, size, "?");
    }
    return buf;
}

const char *lesson_value_text(double v, char *buf, size_t size)
{
    if (fabs(v) >= 1e5)
        snprintf(buf, size, "%.6g", v);
    else
        snprintf(buf, size, "%.4f", fabs(v) < 5e-5 ? 0.0 : v);
    return buf;
}
