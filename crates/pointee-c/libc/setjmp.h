/* pointee's C library model: <setjmp.h>. */
#ifndef _SETJMP_H
#define _SETJMP_H
typedef long jmp_buf[8];
typedef long sigjmp_buf[9];
int setjmp(jmp_buf env);
int _setjmp(jmp_buf env);
int sigsetjmp(sigjmp_buf env, int savemask);
void longjmp(jmp_buf env, int val) __attribute__((__noreturn__));
void _longjmp(jmp_buf env, int val) __attribute__((__noreturn__));
void siglongjmp(sigjmp_buf env, int val) __attribute__((__noreturn__));
#endif
