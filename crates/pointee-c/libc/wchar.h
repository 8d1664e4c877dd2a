/* pointee's C library model: <wchar.h> (the common part). */
#ifndef _WCHAR_H
#define _WCHAR_H
#include <stddef.h>
typedef unsigned int wint_t;
typedef struct { int __count; unsigned int __value; } mbstate_t;
#define WEOF (0xffffffffu)
size_t wcslen(const wchar_t *s);
wchar_t *wcscpy(wchar_t *dest, const wchar_t *src);
int wcscmp(const wchar_t *s1, const wchar_t *s2);
size_t mbrtowc(wchar_t *pwc, const char *s, size_t n, mbstate_t *ps);
size_t wcrtomb(char *s, wchar_t wc, mbstate_t *ps);
#endif
