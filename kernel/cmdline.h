/* The kernel command line: space-separated words, "key" or "key=value". */
#ifndef KERNEL_CMDLINE_H
#define KERNEL_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Finds key in cmdline and copies its value (after '=') into buf, NUL-terminated and truncated to
 * len. Returns true when the key is present (a bare "key" gives an empty value); the last occurrence
 * wins, as on Linux.
 */
bool cmdline_get(const char *cmdline, const char *key, char *buf, size_t len);

/* True when the bare word or key is present. */
bool cmdline_has(const char *cmdline, const char *key);

#endif
