/* SPDX-License-Identifier: MIT */
/* The freestanding subset of <string.h> that the kernel and mm/ use. */
#ifndef LIB_STRING_H
#define LIB_STRING_H

#include <stddef.h>

void *memset(void *dst, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strstr(const char *haystack, const char *needle);

#ifdef HOST_BUILD
/* The host test binary builds lib/memmove.c and lib/memcpy_memset.c under these names, beside the C library's. */
void *lib_memmove(void *dst, const void *src, size_t n);
void *lib_memset(void *dst, int c, size_t n);
void *lib_memcpy(void *dst, const void *src, size_t n);
#endif

#endif
