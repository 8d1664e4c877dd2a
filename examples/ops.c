/* A small device table: the kind of code pointee is for. Try
     pointee dump examples/ops.c
     pointee hover examples/ops.c:38:12      (what `d` points to, per caller)
     pointee callees examples/ops.c:38:21    (where `d->ops->open` may go)
     pointee check examples/ops.c */
#include <stdlib.h>

void MUSTALIAS(void *, void *);
void NOALIAS(void *, void *);

struct file { int fd; };
struct ops {
    int (*open)(struct file *);
    int (*close)(struct file *);
};
struct device { const char *name; struct ops *ops; struct file *file; };

int disk_open(struct file *f) { f->fd = 3; return 0; }
int disk_close(struct file *f) { f->fd = -1; return 0; }
int tty_open(struct file *f) { f->fd = 1; return 0; }
int tty_close(struct file *f) { return 0; }

struct ops disk_ops = { disk_open, disk_close };
struct ops tty_ops = { .open = tty_open, .close = tty_close };
struct file console;

struct device *make(const char *name, struct ops *ops) {
    struct device *d = malloc(sizeof *d);
    if (!d)
        return NULL;
    d->name = name;
    d->ops = ops;
    d->file = &console;
    return d;
}

int start(struct device *d) {
    return d->ops->open(d->file);
}

int main(int argc, char **argv) {
    struct device disk = { "disk", &disk_ops, &console };
    struct device tty = { "tty", &tty_ops, &console };
    struct device *extra = make("spare", &tty_ops);
    start(&disk);
    start(&tty);
    if (extra)
        start(extra);
    NOALIAS(&disk, &tty);
    MUSTALIAS(disk.file, tty.file);
    return 0;
}
