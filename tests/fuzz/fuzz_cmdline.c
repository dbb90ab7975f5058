/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the kernel command line parser (kernel/cmdline.c): the input is a command
 * line. Every answer of the parser is compared with a plain reference model built here from the
 * same bytes (split at spaces, sizes and counts parsed the obvious way):
 *   - cmdline_has() is true exactly when the word is on the line as a whole word;
 *   - cmdline_value() points into the line, just after "key=" at the start of the last word with
 *     that key, and its length runs to the end of that word; cmdline_get() copies exactly that,
 *     NUL-terminated, or refuses with "" when it does not fit;
 *   - cmdline_warn_unknown() writes one line listing exactly the words that are not known options;
 *   - cmdline_setup_hugetlb() makes the same hugetlb_request() calls as the model, in the same
 *     order, and gives as many warnings as the model, each one "hugetlb: ...\n" line.
 * Keys tried: every option of the kernel's table, "", and the keys of the first words of the input.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cmdline.h"
#include "kernel/hugetlb_cmdline.h"
#include "lib/printk.h"
#include "mm/hugetlb.h"

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "fuzz_cmdline: %s:%d: %s\n", __FILE__, \
				__LINE__, #cond);                              \
			abort();                                               \
		}                                                              \
	} while (0)

#define MAX_WORDS 4096
#define MAX_REQUESTS 4096

/* The fuzzer's own copy of the options the kernel registers with CMDLINE_OPTION() (the specification). */
static const char *const bare_options[] = { "bench", "mm_picture", "nosmp", "slub_debug" };
static const char *const value_options[] = { "hugepages", "hugepagesz", "ktest", "nr_cpus", "page_owner",
					      "screen" };

/* ---- mm/hugetlb.c, as far as the parser sees it --------------------------------------------- */

static struct request {
	unsigned int order;
	unsigned long count;
} requests[MAX_REQUESTS];
static size_t nrequests;

bool hugetlb_has_order(unsigned int order)
{
	return order == HPAGE_ORDER || order == GIGANTIC_ORDER;
}

unsigned long hugetlb_request(unsigned int order, unsigned long count)
{
	CHECK(hugetlb_has_order(order));
	CHECK(nrequests < MAX_REQUESTS);
	requests[nrequests++] = (struct request){ order, count };
	return order == GIGANTIC_ORDER && count > HUGETLB_MAX_GIGANTIC ? HUGETLB_MAX_GIGANTIC : count;
}

/* ---- what the parsers write ------------------------------------------------------------------ */

static char *out;
static size_t out_len, out_cap;
static size_t ncalls;        /* capture() calls since reset_output() */
static bool calls_are_lines; /* each call wrote "hugetlb: ...\n" */

static int capture(const char *fmt, ...)
{
	va_list ap, ap2;
	int n;

	va_start(ap, fmt);
	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	CHECK(n >= 0);
	if (out_len + (size_t)n + 1 > out_cap) {
		out_cap = (out_len + (size_t)n + 1) * 2;
		out = realloc(out, out_cap);
		CHECK(out != NULL);
	}
	CHECK(vsnprintf(out + out_len, out_cap - out_len, fmt, ap2) == n);
	calls_are_lines &= n > 9 && !strncmp(out + out_len, "hugetlb: ", 9) && out[out_len + n - 1] == '\n';
	out_len += (size_t)n;
	ncalls++;
	va_end(ap2);
	va_end(ap);
	return n;
}

static void reset_output(void)
{
	out_len = 0;
	ncalls = 0;
	calls_are_lines = true;
	if (out)
		out[0] = '\0';
}

/* ---- the reference model ------------------------------------------------------------------- */

struct word {
	const char *s;
	size_t len;
};
static struct word words[MAX_WORDS];
static size_t nwords;

static void split(const char *line)
{
	nwords = 0;
	for (const char *p = line; *p;) {
		if (*p == ' ') {
			p++;
			continue;
		}
		const char *start = p;
		while (*p && *p != ' ')
			p++;
		CHECK(nwords < MAX_WORDS);
		words[nwords++] = (struct word){ start, (size_t)(p - start) };
	}
}

static bool is_word(const struct word *w, const char *s)
{
	return w->len == strlen(s) && !memcmp(w->s, s, w->len);
}

static bool has_key(const struct word *w, const char *key)
{
	size_t k = strlen(key);
	return w->len > k && w->s[k] == '=' && !memcmp(w->s, key, k);
}

static bool model_known(const struct word *w)
{
	for (size_t i = 0; i < sizeof(bare_options) / sizeof(bare_options[0]); i++)
		if (is_word(w, bare_options[i]))
			return true;
	for (size_t i = 0; i < sizeof(value_options) / sizeof(value_options[0]); i++)
		if (has_key(w, value_options[i]))
			return true;
	return false;
}

/* A decimal number s[0..len) that fits in 64 bits. */
static bool model_number(const char *s, size_t len, unsigned long long *v)
{
	*v = 0;
	if (!len)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		if (*v > (UINT64_MAX - (unsigned)(s[i] - '0')) / 10)
			return false;
		*v = *v * 10 + (unsigned)(s[i] - '0');
	}
	return true;
}

/* The pool order of a hugepagesz= value, or -1: exactly 2 MiB or 1 GiB, with K/M/G or none. */
static int model_size(const char *s, size_t len)
{
	unsigned long long v, mult = 1;
	char last = len ? s[len - 1] : 0;

	if (last == 'k' || last == 'K')
		mult = 1ULL << 10;
	else if (last == 'm' || last == 'M')
		mult = 1ULL << 20;
	else if (last == 'g' || last == 'G')
		mult = 1ULL << 30;
	if (!model_number(s, len - (mult != 1), &v) || v > UINT64_MAX / mult)
		return -1;
	if (v * mult == 2ULL << 20)
		return HPAGE_ORDER;
	if (v * mult == 1ULL << 30)
		return GIGANTIC_ORDER;
	return -1;
}

/* The requests and the number of warnings the hugetlb options of the line must give. */
static size_t model_hugetlb(struct request *want, size_t *nwant)
{
	unsigned int order = HPAGE_ORDER;
	bool size_bad = false;
	size_t warnings = 0;
	unsigned long long n;

	*nwant = 0;
	for (size_t i = 0; i < nwords; i++) {
		const struct word *w = &words[i];
		if (has_key(w, "hugepagesz")) {
			int o = model_size(w->s + 11, w->len - 11);
			size_bad = o < 0;
			warnings += size_bad;
			if (!size_bad)
				order = (unsigned int)o;
		} else if (has_key(w, "hugepages")) {
			if (size_bad || !model_number(w->s + 10, w->len - 10, &n)) {
				warnings++;
				continue;
			}
			want[(*nwant)++] = (struct request){ order, n };
			warnings += order == GIGANTIC_ORDER && n > HUGETLB_MAX_GIGANTIC;
		}
	}
	return warnings;
}

/* ---- the checks ------------------------------------------------------------------------------ */

/* The last word with that key, or NULL. */
static const struct word *model_value(const char *key)
{
	const struct word *found = NULL;

	for (size_t i = 0; i < nwords; i++)
		if (has_key(&words[i], key))
			found = &words[i];
	return found;
}

/* cmdline_get() into buffers of 1 byte, of exactly the value's length, and of one more. */
static void check_get(const char *line, const char *key, const char *v, size_t len)
{
	size_t sizes[] = { 1, len, len + 1 };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t size = sizes[i];
		char *b = size ? malloc(size) : NULL;
		if (!size)
			continue;
		CHECK(b != NULL);
		memset(b, 'x', size);
		bool got = cmdline_get(line, key, b, size);
		CHECK(got == (v != NULL && len < size));
		CHECK(memchr(b, '\0', size) != NULL);
		if (got)
			CHECK(strlen(b) == len && !memcmp(b, v, len));
		else
			CHECK(b[0] == '\0');
		free(b);
	}
}

static void check_key(const char *line, size_t n, const char *key)
{
	size_t klen = strlen(key), len = 12345;
	bool model_has = false;

	for (size_t i = 0; i < nwords; i++)
		model_has |= is_word(&words[i], key);
	CHECK(cmdline_has(line, key) == model_has);

	const struct word *w = model_value(key);
	const char *v = cmdline_value(line, key, &len);
	if (!w) {
		CHECK(v == NULL && len == 0);
	} else {
		CHECK(v == w->s + klen + 1 && len == w->len - klen - 1);
		CHECK(v >= line && v + len <= line + n && (v[len] == ' ' || v[len] == '\0'));
		CHECK(v - klen - 1 == line || v[-(long)klen - 2] == ' ');
		CHECK(!memcmp(v - klen - 1, key, klen) && v[-1] == '=');
	}
	check_get(line, key, v, len);
}

static void check_keys(const char *line, size_t n)
{
	char key[64];

	for (size_t i = 0; i < sizeof(bare_options) / sizeof(bare_options[0]); i++)
		check_key(line, n, bare_options[i]);
	for (size_t i = 0; i < sizeof(value_options) / sizeof(value_options[0]); i++)
		check_key(line, n, value_options[i]);
	check_key(line, n, "");
	for (size_t i = 0; i < nwords && i < 4; i++) {
		const char *eq = memchr(words[i].s, '=', words[i].len);
		size_t klen = eq ? (size_t)(eq - words[i].s) : words[i].len;
		if (klen < sizeof(key)) {
			memcpy(key, words[i].s, klen);
			key[klen] = '\0';
			check_key(line, n, key);
		}
	}
}

static void check_unknown(const char *line)
{
	static const char head[] = "Unknown kernel command line parameters \"";
	static const char tail[] = "\", will be ignored.\n";
	size_t nunknown = 0, at = sizeof(head) - 1;

	reset_output();
	int got = cmdline_warn_unknown(line, capture);
	for (size_t i = 0; i < nwords; i++) {
		bool known = model_known(&words[i]);
		CHECK(cmdline_word_known(words[i].s, words[i].len) == known);
		if (known)
			continue;
		CHECK(out_len >= at + words[i].len + (nunknown ? 1 : 0));
		if (nunknown++)
			CHECK(out[at++] == ' ');
		CHECK(!memcmp(out + at, words[i].s, words[i].len));
		at += words[i].len;
	}
	CHECK(got >= 0 && (size_t)got == nunknown);
	if (!nunknown) {
		CHECK(out_len == 0);
		return;
	}
	CHECK(!memcmp(out, head, sizeof(head) - 1));
	CHECK(out_len == at + sizeof(tail) - 1 && !memcmp(out + at, tail, sizeof(tail) - 1));
}

static void check_hugetlb(const char *line)
{
	static struct request want[MAX_REQUESTS];
	size_t nwant;
	size_t warnings = model_hugetlb(want, &nwant);

	nrequests = 0;
	reset_output();
	int got = cmdline_setup_hugetlb(line, capture);
	CHECK(got >= 0 && (size_t)got == warnings);
	CHECK(nrequests == nwant);
	for (size_t i = 0; i < nwant; i++)
		CHECK(requests[i].order == want[i].order && requests[i].count == want[i].count);
	CHECK(ncalls == warnings && calls_are_lines);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1);

	CHECK(line != NULL);
	memcpy(line, data, size);
	line[size] = '\0';
	split(line);
	check_keys(line, strlen(line));
	check_unknown(line);
	check_hugetlb(line);
	CHECK(cmdline_setup_hugetlb(NULL, capture) == 0 && !cmdline_has(NULL, "bench"));
	free(line);
	return 0;
}
