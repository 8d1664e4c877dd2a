/* pointee's C library model: <grp.h>. */
#ifndef _GRP_H
#define _GRP_H
#include <sys/types.h>
struct group {
    char *gr_name;
    char *gr_passwd;
    gid_t gr_gid;
    char **gr_mem;
};
struct group *getgrnam(const char *name);
struct group *getgrgid(gid_t gid);
#endif
