/*
 * export.c - the LAMMPS input script and data file of a scene (see
 * export.h for the mapping and tests/lammps.sh for its check).
 */
#include "export.h"

#include "contact.h"
#include "numfmt.h"
#include "scene.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Numbers as the shortest decimal that reads back exactly (LAMMPS parses
 * them with strtod). */
static void num(FILE *f, double v)
{
    char buf[NUMFMT_MAX];
    numfmt_double(buf, v);
    fputs(buf, f);
}

static int one_value(const double *a, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (a[i] != a[0])
            return 0;
    return 1;
}

const char *export_lammps_unsupported(const struct sim *s)
{
    const struct sim_params *p = &s->p;
    if (p->shape == SIM_OPEN)
        return "open space (a universe)";
    if (p->shape == SIM_CIRCLE && p->walls == SIM_WALLS_HARD)
        return "the round table's hard wall";
    if (p->contact == SIM_CONTACT_EXP)
        return "exponential contacts";
    if (p->contact == SIM_CONTACT_NONE)
        return "point masses without contacts";
    if (p->gravity != 0)
        return "gravity between balls";
    if (p->reach != 0)
        return "interactions beyond touching";
    if (p->friction != SIM_FRICTION_NONE)
        return "friction";
    if (p->open)
        return "open sides";
    if (s->n == 0)
        return "a scene without balls";
    if (p->restitution == 0)
        return "sticky collisions (restitution 0)";
    if (p->walls == SIM_WALLS_HARD && p->restitution != 1)
        return "hard walls with restitution < 1";
    if (p->walls == SIM_WALLS_HARD && !one_value(s->r, s->n))
        return "hard walls with balls of more than one radius";
    if (p->restitution != 1 && !one_value(s->m, s->n))
        return "restitution < 1 with balls of more than one mass "
               "(gran/hooke has one gamma_n for all pairs)";
    return NULL;
}

double export_gamma_n(double e, double k, double mu)
{
    /* springball: c = 2 zeta sqrt(k mu); LAMMPS: c = mu gamma_n. */
    return 2 * contact_zeta(e) * sqrt(k / mu);
}

static double max_radius(const struct sim *s)
{
    double r = 0;
    for (size_t i = 0; i < s->n; i++)
        if (s->r[i] > r)
            r = s->r[i];
    return r;
}

/* The atom types of the colours of @p color[0..n) (NULL: one type, no
 * colour): the distinct colours in the order the balls first show them,
 * into @p types (EXPORT_TYPES_MAX at most). @return their count, >= 1. */
static int color_types(const uint32_t *color, size_t n, uint32_t *types)
{
    int nt = 0;
    types[0] = SCENE_COLOR_NONE;
    for (size_t b = 0; color && b < n; b++) {
        int t = 0;
        while (t < nt && types[t] != color[b])
            t++;
        if (t == nt && nt < EXPORT_TYPES_MAX)
            types[nt++] = color[b];
    }
    return nt ? nt : 1;
}

/* Ball @p b's atom type (1-based). */
static int ball_type(const uint32_t *color, size_t b, const uint32_t *types, int nt)
{
    for (int t = 0; color && t < nt; t++)
        if (types[t] == color[b])
            return t + 1;
    return 1;
}

void export_lammps_data(FILE *f, const struct sim *s, const char *title,
                        const uint32_t *color)
{
    uint32_t types[EXPORT_TYPES_MAX];
    int nt = color_types(color, s->n, types);
    /* The box holds every centre with a margin of the largest radius, so
     * that a ball pressed into a wall spring is never outside it. */
    const double R = max_radius(s);
    fprintf(f, "springball scene%s%s (LAMMPS data file, atom_style sphere, 2-d)\n\n",
            title ? ": " : "", title ? title : "");
    fprintf(f, "%zu atoms\n%d atom types\n\n", s->n, nt);
    num(f, -R), fputc(' ', f), num(f, s->p.w + R), fputs(" xlo xhi\n", f);
    num(f, -R), fputc(' ', f), num(f, s->p.h + R), fputs(" ylo yhi\n", f);
    fputs("-0.5 0.5 zlo zhi\n\nAtoms # sphere\n\n", f);
    /* id type diameter density x y z; LAMMPS's mass is density 4/3 pi r^3 */
    for (size_t b = 0; b < s->n; b++) {
        size_t i = sim_slot(s, b);
        double r = s->r[i];
        fprintf(f, "%zu %d ", b + 1, ball_type(color, b, types, nt));
        num(f, 2 * r), fputc(' ', f);
        num(f, s->m[i] / (4.0 / 3.0 * SIM_PI * r * r * r)), fputc(' ', f);
        num(f, s->x[i]), fputc(' ', f);
        num(f, s->y[i]), fputs(" 0\n", f);
    }
    fputs("\nVelocities\n\n", f);
    /* id vx vy vz wx wy wz */
    for (size_t b = 0; b < s->n; b++) {
        size_t i = sim_slot(s, b);
        fprintf(f, "%zu ", b + 1);
        num(f, s->vx[i]), fputc(' ', f);
        num(f, s->vy[i]), fputs(" 0 0 0 0\n", f);
    }
}

/* The dashpot of a wall on a ball of mass m: c = 2 zeta sqrt(k m) times
 * the velocity into the wall, written as LAMMPS evaluates it from the
 * atom's mass (any masses: a wall's reduced mass is the ball's own). */
static void dashpot(FILE *f, const struct sim *s)
{
    num(f, 2 * contact_zeta(s->p.restitution));
    fputs("*sqrt(", f), num(f, s->p.k), fputs("*mass)", f);
}

/*
 * Spring walls as springball has them, k times the penetration toward the
 * table at any depth (also with the centre past the wall line, where
 * fix wall/gran pushed the ball out and lost it): fix addforce with
 * atom-style variables, applied to the balls near a wall (a dynamic
 * group, so that the formulas are evaluated for those alone). The terms
 * are springball's, in its order (contact_wall_axis, wall_force): the
 * penetration r - q off the low wall and q + r - len off the high one,
 * times k, less the dashpot; the round table's k (r - (R - d)) along the
 * inward normal (contact_wall_circle).
 */
static void spring_walls(FILE *f, const struct sim *s, double R)
{
    const struct sim_params *p = &s->p;
    const int damped = p->restitution != 1;
    fputs("# Spring walls: force k times the penetration toward the table, at any\n"
          "# depth, on the balls near a wall (the dynamic group near)", f);
    if (damped)
        fputs(",\n# less the dashpot 2 zeta sqrt(k m) times the velocity into the wall", f);
    fputs(".\ncompute rad all property/atom radius\n", f);
    if (p->shape == SIM_CIRCLE) {
        const double c = 0.5 * p->w;
        fputs("region inner cylinder z ", f), num(f, c), fputc(' ', f), num(f, c);
        fputc(' ', f), num(f, c - R), fputs(" INF INF side out units box\n", f);
        fputs("variable dx atom x-", f), num(f, c), fputc('\n', f);
        fputs("variable dy atom y-", f), num(f, c), fputc('\n', f);
        fputs("variable d atom sqrt(v_dx*v_dx+v_dy*v_dy)\n", f);
        /* the inward normal; a centre at the middle has no wall force */
        fputs("variable nx atom (0-v_dx)/(v_d+(v_d==0))\n"
              "variable ny atom (0-v_dy)/(v_d+(v_d==0))\n", f);
        fputs("variable s atom c_rad-(", f), num(f, c), fputs("-v_d)\n", f);
        fputs("variable wf atom (v_s*", f), num(f, p->k);
        if (damped)
            fputc('-', f), dashpot(f, s), fputs("*(vx*v_nx+vy*v_ny)", f);
        fputs(")*(v_s>0)\n", f);
        fputs("variable wfx atom v_wf*v_nx\nvariable wfy atom v_wf*v_ny\n", f);
    } else {
        fputs("region inner block ", f), num(f, R), fputc(' ', f), num(f, p->w - R);
        fputc(' ', f), num(f, R), fputc(' ', f), num(f, p->h - R);
        fputs(" INF INF side out units box\n", f);
        const double len[2] = {p->w, p->h};
        for (int a = 0; a < 2; a++) {
            const char q = (char)('x' + a);
            fprintf(f, "variable wf%c atom ((c_rad-%c)*", q, q), num(f, p->k);
            if (damped)
                fputc('-', f), dashpot(f, s), fprintf(f, "*v%c", q);
            fprintf(f, ")*(c_rad>%c)-((%c+c_rad-", q, q), num(f, len[a]);
            fputs(")*", f), num(f, p->k);
            if (damped)
                fputc('+', f), dashpot(f, s), fprintf(f, "*v%c", q);
            fprintf(f, ")*(%c+c_rad>", q), num(f, len[a]), fputs(")\n", f);
        }
    }
    fputs("group near dynamic all region inner every 1\n"
          "fix walls near addforce v_wfx v_wfy 0\n", f);
}

void export_lammps_in(FILE *f, const struct sim *s, const struct export_run *run)
{
    const struct sim_params *p = &s->p;
    const double R = max_radius(s);
    double mtot = 0, e = p->restitution;
    for (size_t i = 0; i < s->n; i++)
        mtot += s->m[i];
    fprintf(f, "# springball scene%s%s as a LAMMPS run: %zu balls, table ",
            run->title ? ": " : "", run->title ? run->title : "", s->n);
    if (p->shape == SIM_CIRCLE) /* read back by the replay (traj_lammps.c) */
        fputs("circle ", f), num(f, 0.5 * p->w);
    else
        num(f, p->w), fputs(" x ", f), num(f, p->h);
    fputs(", k ", f), num(f, p->k);
    fputs(", dt ", f), num(f, p->dt), fputs(", restitution ", f), num(f, e);
    fprintf(f, ", %llu steps.\n", run->steps);
    {
        /* the colours of the atom types, which the replay of a dump reads
         * (traj_lammps.c): red, rgbff8000 for #ff8000, X for none */
        uint32_t types[EXPORT_TYPES_MAX];
        int nt = color_types(run->color, s->n, types);
        if (nt > 1 || types[0] != SCENE_COLOR_NONE) {
            fputs("# springball colours by type:", f);
            for (int t = 0; t < nt; t++) {
                char buf[16];
                const char *nm = scene_color_name(types[t], buf);
                fprintf(f, " %s%s", nm && nm[0] == '#' ? "rgb" : "",
                        !nm ? "X" : nm[0] == '#' ? nm + 1 : nm);
            }
            fputc('\n', f);
        }
    }
    fputs("# Serial:   lmp -in THIS_FILE\n"
          "# Parallel: mpirun -np 2 lmp -in THIS_FILE\n"
          "# Written by springball --export=lammps; see springball(1).\n\n"
          "units lj\ndimension 2\nboundary m m p\natom_style sphere\n"
          "atom_modify map array\ncomm_modify vel yes\n", f);
    fprintf(f, "read_data %s\n\n", run->data_name);
    fputs("# LAMMPS gives a sphere of density D the mass D 4/3 pi r^3, in 2-d too;\n"
          "# stop if this one computed other masses than the scene's.\n"
          "variable mtot equal mass(all)\n"
          "variable mbad equal abs(v_mtot/", f);
    num(f, mtot);
    fputs("-1)>1e-9\n"
          "if \"${mbad}\" then \"print 'springball export: this LAMMPS computed a total "
          "mass of ${mtot}, not ", f);
    num(f, mtot);
    fputs("'\" \"quit 1\"\n\n", f);

    /* Hooke contacts: Kn in force/distance, no tangential force. */
    double mu = s->m[0] / 2, gn = e == 1 ? 0 : export_gamma_n(e, p->k, mu);
    fputs("# Normal force Kn*delta - m_eff*gamma_n*v_n on the overlap delta;\n"
          "# Kt = gamma_t = xmu = 0: no tangential force.\n", f);
    if (e != 1) {
        fputs("# gamma_n = 2 zeta sqrt(k/mu), zeta = -ln e / sqrt(pi^2 + ln^2 e): restitution ", f);
        num(f, e);
        fputs(" for every pair\n# (mu = m/2), all balls of mass ", f);
        num(f, s->m[0]);
        fputs(".\n", f);
    }
    fputs("pair_style gran/hooke ", f);
    num(f, p->k), fputc(' ', f), fputs("0 ", f), num(f, gn), fputs(" 0 0 0\n", f);
    fputs("pair_coeff * *\n", f);
    /* The skin: a ball moves at most about v dt per step; 0.3 R leaves
     * room for several steps between neighbour list builds. */
    fputs("neighbor ", f), num(f, R > 0 ? 0.3 * R : 1), fputs(" bin\n", f);
    fputs("neigh_modify delay 0 every 1 check yes\n", f);
    fputs("timestep ", f), num(f, p->dt), fputs("\n\n", f);

    if (p->walls == SIM_WALLS_HARD) {
        /* Reflect the centres at r from the edges: the balls' surfaces at
         * the edges (one radius: checked by export_lammps_unsupported). */
        fputs("# Hard walls: centres reflected at r from the edges.\n", f);
        fputs("fix walls all wall/reflect xlo ", f), num(f, R), fputs(" xhi ", f);
        num(f, p->w - R), fputs(" ylo ", f), num(f, R), fputs(" yhi ", f);
        num(f, p->h - R), fputs("\n", f);
    } else {
        spring_walls(f, s, R);
    }
    if (p->gx != 0 || p->gy != 0) {
        /* A uniform field: LAMMPS's gravity is an acceleration, the force
         * m g along a unit vector. */
        double g = hypot(p->gx, p->gy);
        fputs("# The uniform field: force m (gx, gy) on every ball.\nfix field all gravity ", f);
        num(f, g), fputs(" vector ", f), num(f, p->gx / g), fputc(' ', f);
        num(f, p->gy / g), fputs(" 0\n", f);
    }
    fputs("fix move all nve/sphere\nfix flat all enforce2d\n\n", f);

    fputs("# Kinetic energy (gran/hooke and the walls tally no potential energy:\n"
          "# compare energies between contacts).\n"
          "compute ke all ke\n"
          "thermo_style custom step time c_ke\n"
          "thermo_modify norm no format float %.17g\nthermo 100\n", f);
    if (run->every > 0) {
        /* element X for every type (ASE and OVITO read X as "no element";
         * a colour name is no element to them), the type in a column of
         * its own: the replay colours it by the comment above */
        uint32_t types[EXPORT_TYPES_MAX];
        int nt = color_types(run->color, s->n, types);
        char names[EXPORT_TYPES_MAX * 2 + 1] = "";
        for (int t = 0; t < nt; t++)
            strcat(names, " X");
        if (!run->trj_only) {
            fprintf(f, "dump xyz all xyz %llu %s.xyz\n", run->every, run->dump_prefix);
            fprintf(f, "dump_modify xyz element%s sort id format line \"%%s %%.17g %%.17g %%.17g\"\n",
                    names);
        }
        /* element and z: ASE's lammps-dump-text reader needs a type or
         * element column and all three coordinates */
        /* the type last: readers that take columns by place (x y the 3rd
         * and 4th) read the same */
        fprintf(f, "dump traj all custom %llu %s.lammpstrj id element x y z vx vy vz "
                   "radius mass%s\n", run->every, run->dump_prefix, nt > 1 ? " type" : "");
        fprintf(f, "dump_modify traj element%s sort id format float %%.17g\n", names);
    }
    if (run->imd_port_var)
        fprintf(f, "\n# Interactive MD: springball --engine=lammps watches and steers the\n"
                   "# run; it waits for it (nowait off), so that no frame is missed.\n"
                   "fix imd all imd ${%s} trate %llu\n",
                run->imd_port_var, run->imd_trate);
    else if (run->imd_port)
        fprintf(f, "\n# Interactive MD: springball --connect=HOST:%d (or VMD) watches the\n"
                   "# run and pulls balls; nowait on: the run never waits for a viewer.\n"
                   "fix imd all imd %d trate %llu nowait on\n",
                run->imd_port, run->imd_port, run->imd_trate);
    fprintf(f, "run %llu\n", run->steps);
    if (run->final_dump)
        fprintf(f, "write_dump all custom %s id x y vx vy modify sort id "
                   "format float %%.17g\n", run->final_dump);
}
