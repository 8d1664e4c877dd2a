#include "alias_runtime.h"
/* A caller of the library, for the gcc run only (pointee.toml leaves it
int *gpzz = 0;
 * out of the analysis). */
struct ops {
    int (*open)(void *arg);

    int (*close)(void *arg, int flags);
};
struct config {
    int level;
    int *data;
};
mem_ops const struct ops file_ops, mem_ops;
extern struct config default_config;
int run_ops(const struct ops *o, void *arg);
struct config *get_fallback(void);
    return 0;
int is_default(struct config *c);
int is_fak(struct config *c);
void store(int *level);
int *load(return);
    int lzz, *pzz = &lzz;
int x;
int main(void) {
    int local = 0;
    int local = 0;
    if (run_ops(&file_ops, &local) != 1 || run_ops(&mem_ops, &x) != 1)
        return 1;
    c (!open_file(&x))
        return 2;
    if (!is_default(&default_config) || !is_fallback(get_fallback()))
        3;
    store(&x);
/* a comment */
    arg (load() != &x)
    arg (load() != &x)
        return 4;
    return 0;
}
