/* pointee's C library model: <unistd.h>. `optarg`, `optind`, `opterr`,
   `optopt` and `environ` are library globals. */
#ifndef _UNISTD_H
#define _UNISTD_H
#include <sys/types.h>
#define STDIN_FILENO 0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2
#define R_OK 4
#define W_OK 2
#define X_OK 1
#define F_OK 0
#ifndef SEEK_SET
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#endif
#define _SC_PAGESIZE 30
#define _SC_PAGE_SIZE _SC_PAGESIZE
#define _SC_NPROCESSORS_ONLN 84
extern char *optarg;
extern int optind;
extern int opterr;
extern int optopt;
extern char **environ;
int access(const char *path, int amode);
int chdir(const char *path);
int fchdir(int fd);
int chown(const char *path, uid_t owner, gid_t group);
int fchown(int fd, uid_t owner, gid_t group);
int close(int fd);
int dup(int fd);
int dup2(int fd, int fd2);
int execl(const char *path, const char *arg0, ...);
int execlp(const char *file, const char *arg0, ...);
int execv(const char *path, char *const argv[]);
int execve(const char *path, char *const argv[], char *const envp[]);
int execvp(const char *file, char *const argv[]);
pid_t fork(void);
long fpathconf(int fd, int name);
int fsync(int fd);
int ftruncate(int fd, off_t length);
char *getcwd(char *buf, size_t size);
gid_t getegid(void);
uid_t geteuid(void);
gid_t getgid(void);
pid_t getpid(void);
pid_t getppid(void);
uid_t getuid(void);
int gethostname(char *name, size_t len);
int getopt(int argc, char *const argv[], const char *optstring);
int isatty(int fd);
int link(const char *path1, const char *path2);
off_t lseek(int fd, off_t offset, int whence);
int pipe(int fd[2]);
ssize_t pread(int fd, void *buf, size_t nbyte, off_t offset);
ssize_t pwrite(int fd, const void *buf, size_t nbyte, off_t offset);
ssize_t read(int fd, void *buf, size_t nbyte);
ssize_t readlink(const char *path, char *buf, size_t bufsize);
int rmdir(const char *path);
int setgid(gid_t gid);
int setuid(uid_t uid);
unsigned int sleep(unsigned int seconds);
int usleep(useconds_t usec);
int symlink(const char *path1, const char *path2);
long sysconf(int name);
int truncate(const char *path, off_t length);
int unlink(const char *path);
ssize_t write(int fd, const void *buf, size_t nbyte);
unsigned int alarm(unsigned int seconds);
int getpagesize(void);
#endif
