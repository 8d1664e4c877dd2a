/* Records every call of an instrumented function (gcc
 * -finstrument-functions): the callee's address and the call site, one
 * pair a line, in the file named by POINTEE_CALLS. Edges, not a stack:
 * longjmp may skip function exits. Each pair is written once (a table of
 * the pairs seen; an interpreter makes millions of calls along a few
 * thousand edges), flushed at once so an exit by any path keeps it. */
#include <stdio.h>
#include <stdlib.h>

#define SLOTS (1 << 18)

static FILE *out;
static unsigned long seen_fn[SLOTS], seen_site[SLOTS];

/* Whether the pair was seen; marks it seen. A full table answers "not
 * seen" (a pair written twice is harmless). */
__attribute__((no_instrument_function)) static int seen(unsigned long fn, unsigned long site) {
    unsigned long h = (fn * 0x9e3779b97f4a7c15UL) ^ (site * 0xbf58476d1ce4e5b9UL);
    for (unsigned long i = 0; i < 64; i++) {
        unsigned long k = (h + i) & (SLOTS - 1);
        if (seen_fn[k] == fn && seen_site[k] == site)
            return 1;
        if (seen_fn[k] == 0) {
            seen_fn[k] = fn;
            seen_site[k] = site;
            return 0;
        }
    }
    return 0;
}

__attribute__((no_instrument_function)) void __cyg_profile_func_enter(void *fn, void *site) {
    if (seen((unsigned long)fn, (unsigned long)site))
        return;
    if (!out) {
        const char *path = getenv("POINTEE_CALLS");
        out = fopen(path ? path : "/dev/null", "w");
        if (!out)
            return;
    }
    fprintf(out, "%lx %lx\n", (unsigned long)fn, (unsigned long)site);
    fflush(out);
}

__attribute__((no_instrument_function)) void __cyg_profile_func_exit(void *fn, void *site) {
    (void)fn;
    (void)site;
}
