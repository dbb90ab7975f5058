/* SPDX-License-Identifier: MIT */
/*
 * The calls built on kmalloc() that other kernels' code expects (mm/slab.h): krealloc(), the
 * overflow-checked kmalloc_array() and kcalloc(), and the copies kmemdup(), kstrdup() and
 * kstrndup(). Nothing here knows a slab's insides: ksize() says how big an object really is.
 */
#include "mm/slab.h"

#include "mm/arch.h"

void *krealloc(const void *p, size_t new_size, gfp_t gfp)
{
	size_t old_size;
	void *q;

	if (!p || p == ZERO_SIZE_PTR)
		return kmalloc(new_size, gfp);
	if (!new_size) {
		kfree(p);
		return ZERO_SIZE_PTR;
	}
	old_size = ksize(p); /* 0, reported, when kmalloc never returned p */
	if (!old_size)
		return NULL;
	if (new_size <= old_size)
		return (void *)p; /* the object already holds new_size bytes: keep it */
	q = kmalloc(new_size, gfp);
	if (!q)
		return NULL; /* p untouched, still the caller's */
	memcpy(q, p, old_size);
	kfree(p);
	return q;
}

/* n * size in *bytes, or false (said why) when the product does not fit in a size_t. */
static bool array_bytes(const char *fn, size_t n, size_t size, size_t *bytes)
{
	if (!__builtin_mul_overflow(n, size, bytes))
		return true;
	printk("%s: %zu elements of %zu bytes overflow a size_t; refused\n", fn, n, size);
	return false;
}

void *kmalloc_array(size_t n, size_t size, gfp_t gfp)
{
	size_t bytes;

	return array_bytes("kmalloc_array", n, size, &bytes) ? kmalloc(bytes, gfp) : NULL;
}

void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	size_t bytes;

	return array_bytes("kcalloc", n, size, &bytes) ? kmalloc(bytes, gfp | __GFP_ZERO) : NULL;
}

void *kmemdup(const void *src, size_t len, gfp_t gfp)
{
	void *p = kmalloc(len, gfp);

	if (p && len)
		memcpy(p, src, len);
	return p;
}

/* The length of s, at most max (mm/ has no string library of its own). */
static size_t string_length(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

/* A kmalloc'd copy of the len bytes at s with a NUL after them, or NULL. */
static char *copy_string(const char *s, size_t len, gfp_t gfp)
{
	char *p = kmalloc(len + 1, gfp);

	if (p) {
		memcpy(p, s, len);
		p[len] = '\0';
	}
	return p;
}

char *kstrdup(const char *s, gfp_t gfp)
{
	return s ? copy_string(s, string_length(s, SIZE_MAX - 1), gfp) : NULL;
}

char *kstrndup(const char *s, size_t max, gfp_t gfp)
{
	return s ? copy_string(s, string_length(s, MIN(max, SIZE_MAX - 1)), gfp) : NULL;
}
