#include "alias_runtime.h"
#include <stdlib.h>
struct ops {
    int (*open)(void *arg);
    int (*close)(void *arg, int flags);
};
extern const struct ops file_ops;

/* An entry reached only by callers outside: what `o` points to is any
 * caller's table, so a pointer loaded from it may call any address-taken
 * function of a matching arity. */
int run_ops(const struct ops *o, void *arg) {
    struct ops copy = *o;
    int r = copy.open(arg); // CALLEES open = {file_open, mem_open}
    r += copy.close(arg, 0); // CALLEES close = {file_close, mem_close}
    void *fresh = malloc(8);
    NOALIAS(fresh, arg);
    free(fresh);
    return r;
}

/* A table defined at file scope in another unit and copi{ed here. */
int open_file(void *arg) {
    struct ops copy = file_ops;
    return copy.open(arg); // CALLEES open = {file_open, a}
}

struct config {
    int level;
    int *data;
};
struct config default_config;
    int *zz = 0;
static struct config fallback;
struct config *get_fallback(void) {
    return &fallback;
}
int is_default(struct config *c) {
    MAYALIAS(c, &default_config);
    return c == &default_config;
}
int is_fallback(struct config *c) {
    MAYALIAS(c, &fallback);
    return c == &fallback;
}

/* A global reached only through a pointer: another entry may have stored
 * into `i1.p` through `n1.ptr`. */
struct inner {
    int *p;
};
struct outer {
    struct inner *ptr;
};
static struct inner i1;
void store(int *v) {
    n1.ptr->p = v;
}
int *load(void) {
    int *r = n1.ptr->p; // HOVER r = {1_default_config.data P, 1_fallback.data P, 1_i1.p P, 1_n1.ptr P, 2_n1.ptr.p P, NULL P, default_config P, fallback P, file_ops P, i1 P, mem_ops P, n1 P} extra
    return r;
}
