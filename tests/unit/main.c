/*
 * main.c - runs the unit suites; `unit NAME` runs only the suite NAME.
 */
#include "test.h"

#include <string.h>

int test_passed, test_failed;

static const struct {
    const char *name;
    void (*run)(void);
} suites[] = {
    {"sim", test_sim},
    {"scene", test_scene},
    {"systems", test_systems},
    {"universe", test_universe},
    {"event", test_event},
    {"eventfield", test_event_field},
    {"particles", test_particles},
    {"view", test_view},
    {"palette", test_palette},
    {"history", test_history},
    {"fuzz", test_fuzz},
    {"grid", test_grid},
    {"lab", test_lab},
    {"plot", test_plot},
    {"panel", test_labpanel},
    {"twin", test_twin},
    {"classroom", test_classroom},
    {"friction", test_friction},
    {"session", test_session},
    {"screen", test_screen},
    {"script", test_script},
    {"edit", test_edit},
    {"numfmt", test_numfmt},
    {"record", test_record},
    {"mem", test_mem},
    {"observe", test_observe},
    {"limits", test_limits},
    {"traj", test_traj},
    {"phet", test_phet},
    {"lesson", test_lesson},
    {"split", test_split},
    {"cast", test_cast},
    {"imd", test_imd},
};

int main(int argc, char **argv)
{
    for (size_t i = 0; i < sizeof suites / sizeof *suites; i++) {
        if (argc > 1 && strcmp(argv[1], suites[i].name) != 0)
            continue;
        int before = test_failed;
        suites[i].run();
        printf("%-10s %s\n", suites[i].name, test_failed == before ? "ok" : "FAILED");
    }
    printf("%d passed, %d failed\n", test_passed, test_failed);
    return test_failed != 0;
}
