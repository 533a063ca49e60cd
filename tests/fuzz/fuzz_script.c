/*
 * fuzz_script.c - libFuzzer harness: the key script parser (--keys). Any
 * bytes give either items that keep the documented bounds (waits finite and
 * >= 0, cells from 0 to 10000, mouse events known, keys characters,
 * script_special codes up to SCRIPT_F5, or SCRIPT_ALT with a printable
 * character) or -1 with a message and nothing allocated.
 */
#include "script.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = 0;
    struct script_item *it = NULL;
    char err[256];
    err[0] = 0;
    int n = script_parse(s, &it, err, sizeof err);
    if (n < 0) {
        if (!err[0])
            __builtin_trap(); /* a refusal says why */
    } else {
        for (int i = 0; i < n; i++) {
            const struct script_item *p = &it[i];
            switch (p->kind) {
            case SCRIPT_KEY:
                if ((p->key & SCRIPT_ALT) ? (p->key & ~SCRIPT_ALT) < ' ' || (p->key & ~SCRIPT_ALT) > '~'
                                          : p->key < 0 || p->key > SCRIPT_F5)
                    __builtin_trap();
                break;
            case SCRIPT_WAIT:
                if (!(p->t >= 0 && isfinite(p->t)))
                    __builtin_trap();
                break;
            case SCRIPT_CLICK: case SCRIPT_MOUSE:
                if (p->x < 0 || p->y < 0 || p->x > 10000 || p->y > 10000 ||
                    (p->kind == SCRIPT_MOUSE && (p->mouse < 0 || p->mouse > SCRIPT_WHEEL_DOWN)))
                    __builtin_trap();
                break;
            default:
                __builtin_trap();
            }
        }
        free(it);
    }
    free(s);
    return 0;
}
