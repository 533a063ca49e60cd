/*
 * export.c - the LAMMPS input script and data file of a scene (see
 * export.h for the mapping and tests/lammps.sh for its check).
 */
#include "export.h"

#include "contact.h"
#include "numfmt.h"

#include <math.h>
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
    if (p->shape == SIM_CIRCLE)
        return "the round table";
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

void export_lammps_data(FILE *f, const struct sim *s, const char *title)
{
    /* The box holds every centre with a margin of the largest radius, so
     * that a ball pressed into a wall spring is never outside it. */
    const double R = max_radius(s);
    fprintf(f, "springball scene%s%s (LAMMPS data file, atom_style sphere, 2-d)\n\n",
            title ? ": " : "", title ? title : "");
    fprintf(f, "%zu atoms\n1 atom types\n\n", s->n);
    num(f, -R), fputc(' ', f), num(f, s->p.w + R), fputs(" xlo xhi\n", f);
    num(f, -R), fputc(' ', f), num(f, s->p.h + R), fputs(" ylo yhi\n", f);
    fputs("-0.5 0.5 zlo zhi\n\nAtoms # sphere\n\n", f);
    /* id type diameter density x y z; LAMMPS's mass is density 4/3 pi r^3 */
    for (size_t b = 0; b < s->n; b++) {
        size_t i = sim_slot(s, b);
        double r = s->r[i];
        fprintf(f, "%zu 1 ", b + 1);
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

void export_lammps_in(FILE *f, const struct sim *s, const struct export_run *run)
{
    const struct sim_params *p = &s->p;
    const double R = max_radius(s);
    double mtot = 0, e = p->restitution;
    for (size_t i = 0; i < s->n; i++)
        mtot += s->m[i];
    fprintf(f, "# springball scene%s%s as a LAMMPS run: %zu balls, table ",
            run->title ? ": " : "", run->title ? run->title : "", s->n);
    num(f, p->w), fputs(" x ", f), num(f, p->h), fputs(", k ", f), num(f, p->k);
    fputs(", dt ", f), num(f, p->dt), fputs(", restitution ", f), num(f, e);
    fprintf(f, ", %llu steps.\n", run->steps);
    fputs("# Serial:   lmp -in THIS_FILE\n"
          "# Parallel: mpirun -np 2 lmp -in THIS_FILE\n"
          "# Written by springball --export=lammps; see springball(1).\n\n"
          "units lj\ndimension 2\nboundary f f p\natom_style sphere\n"
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
    double gw = e == 1 ? 0 : export_gamma_n(e, p->k, s->m[0]);
    fputs("# Normal force Kn*delta - m_eff*gamma_n*v_n on the overlap delta;\n"
          "# Kt = gamma_t = xmu = 0: no tangential force.\n", f);
    if (e != 1) {
        fputs("# gamma_n = 2 zeta sqrt(k/mu), zeta = -ln e / sqrt(pi^2 + ln^2 e): restitution ", f);
        num(f, e);
        fputs(" for every pair\n# (mu = m/2) and wall (mu = m), all balls of mass ", f);
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
        fputs("# Spring walls: force k (r - distance) on a ball closer than r.\n", f);
        const char *names[2] = {"xplane", "yplane"};
        const double len[2] = {p->w, p->h};
        for (int a = 0; a < 2; a++) {
            fprintf(f, "fix wall%c all wall/gran hooke ", 'x' + a);
            num(f, p->k), fputs(" 0 ", f), num(f, gw), fprintf(f, " 0 0 0 %s 0 ", names[a]);
            num(f, len[a]), fputc('\n', f);
        }
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

    fputs("# Kinetic energy (gran/hooke and wall/gran tally no potential energy:\n"
          "# compare energies between contacts).\n"
          "compute ke all ke\n"
          "thermo_style custom step time c_ke\n"
          "thermo_modify norm no format float %.17g\nthermo 100\n", f);
    if (run->every > 0) {
        fprintf(f, "dump xyz all xyz %llu %s.xyz\n", run->every, run->dump_prefix);
        fputs("dump_modify xyz element X sort id format line \"%s %.17g %.17g %.17g\"\n", f);
        fprintf(f, "dump traj all custom %llu %s.lammpstrj id x y vx vy radius mass\n",
                run->every, run->dump_prefix);
        fputs("dump_modify traj sort id format float %.17g\n", f);
    }
    fprintf(f, "run %llu\n", run->steps);
}
