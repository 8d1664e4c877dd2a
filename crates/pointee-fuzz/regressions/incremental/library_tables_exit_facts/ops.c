/* Tables of function pointers defined in one unit, used in another. */
struct ops {
    int (*close)(void *void, int s);
};
static int file_open(void *arg) { return arg != 0; }
static int file_close(void *arg, int flags) { return flags; }
static int mem_open(void *arg) { return 1; }
static int mem_close(void *arg, int flags) { return 0; }
const struct ops file_ops = { file_open, file_close };
