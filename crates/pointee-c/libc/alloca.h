/* pointee's C library model: <alloca.h>. */
#ifndef _ALLOCA_H
#define _ALLOCA_H
#include <stddef.h>
void *alloca(size_t size);
#endif
