/* SPDX-License-Identifier: MIT */
/*
 * The kernel command line: words separated by spaces, each a bare word ("bench") or key=value
 * ("ktest=printk"); there is no quoting. Every option the kernel reads is registered with
 * CMDLINE_OPTION() by the file that reads it, in the cmdline_options section, which says whether
 * it is a bare word or takes a value; any other word is listed in one warning and ignored.
 */
#ifndef KERNEL_CMDLINE_H
#define KERNEL_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

enum cmdline_form { CMDLINE_BARE, CMDLINE_VALUE };

struct cmdline_option {
	const char *name;       /* "bench", "ktest" */
	enum cmdline_form form; /* a bare word, or name=value */
};

/*
 * Registers the option name (a string) of the given form, CMDLINE_BARE or CMDLINE_VALUE, as one
 * the kernel knows; at file scope, in the file that reads it (like Linux's early_param()). The
 * linker gathers pointers to them, not the options, so sanitizer padding cannot break the walk.
 */
#define CMDLINE_OPTION(ident, name, form)                                             \
	static const struct cmdline_option cmdline_option_##ident = { name, form };   \
	static const struct cmdline_option *const cmdline_option_ptr_##ident          \
		__attribute__((used, section("cmdline_options"))) = &cmdline_option_##ident

/* The word at or after s (NULL when none is left), its length in *len. */
const char *cmdline_next_word(const char *s, size_t *len);

/* Each word of cmdline in turn, as w with its length len. */
#define cmdline_for_each_word(w, len, cmdline) \
	for ((w) = cmdline_next_word((cmdline), &(len)); (w); (w) = cmdline_next_word((w) + (len), &(len)))

/* Is the word w[0..len) "key=..." for the key of length klen? */
bool cmdline_word_has_key(const char *w, size_t len, const char *key, size_t klen);

/* Parses the decimal number s[0..len) into *out; false when it is not one or does not fit. */
bool cmdline_parse_ulong(const char *s, size_t len, unsigned long *out);

/* True when the bare word is on the command line: "bench", not "bench=off" nor "benchmark". */
bool cmdline_has(const char *cmdline, const char *word);

/*
 * The value of the last key=value word for key ("ktest=a,b" gives "a,b"; the last one wins, as on
 * Linux), as a pointer into cmdline with its length in *len; NULL when there is none. A bare "key"
 * has no value; "key=" has the empty one.
 */
const char *cmdline_value(const char *cmdline, const char *key, size_t *len);

/*
 * Copies what cmdline_value() finds into buf, NUL-terminated. Returns true when there is a value
 * and it fits in size bytes; false (buf then holds "") when there is none or it is too long, so a
 * cut value is never taken for the real one.
 */
bool cmdline_get(const char *cmdline, const char *key, char *buf, size_t size);

/* True when the word s[0..len) is a known option in its known form (bare, or key=value). */
bool cmdline_word_known(const char *s, size_t len);

/* Where the option parsers write their warnings: printk in the kernel, a buffer in the tests. */
typedef int cmdline_warn_fn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Writes one line listing every word that is not a known option, as Linux does:
 *   Unknown kernel command line parameters "foo bar=1", will be ignored.
 * and nothing when there is none. Returns the number of unknown words.
 */
int cmdline_warn_unknown(const char *cmdline, cmdline_warn_fn *warn);

/*
 * The most CPUs the command line lets the kernel run: 1 with nosmp, N with nr_cpus=N (the smaller
 * when both are given), CMDLINE_NO_CPU_LIMIT when neither is. A nr_cpus= that is not a number of
 * 1 or more is ignored, with a warning line. cmdline may be NULL.
 */
#define CMDLINE_NO_CPU_LIMIT (~0u)
unsigned int cmdline_cpu_limit(const char *cmdline, cmdline_warn_fn *warn);

/*
 * Whether page_owner=on asks mm/ to record who allocated each block (mm/page_owner.h). Off
 * without it and with page_owner=off; any other value is ignored with a warning line. cmdline
 * may be NULL.
 */
bool cmdline_page_owner(const char *cmdline, cmdline_warn_fn *warn);

#endif
