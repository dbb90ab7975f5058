/* SPDX-License-Identifier: MIT */
/*
 * The kernel command line: finding words and key=value options, the table of every option the
 * kernel knows (anything else is reported as unknown), and the hugetlb options hugepagesz= and
 * hugepages=, which are parsed here and handed to mm/hugetlb.c as numbers.
 */
#include "kernel/cmdline.h"

#include "lib/printk.h"
#include "lib/string.h"
#include "mm/hugetlb.h"

enum option_form { BARE, VALUE };

/* Every option the kernel reads, and where. */
static const struct option {
	const char *name;
	enum option_form form;
} options[] = {
	{ "bench", BARE },       /* kernel/main.c: run the benchmarks linked in, if any */
	{ "hugepages", VALUE },  /* here: how many huge pages to put in the pool at boot */
	{ "hugepagesz", VALUE }, /* here: which size the hugepages= after it is for */
	{ "ktest", VALUE },      /* tests/ktest/kernel/ktest_boot.c: which self-test suites run, or "off" */
	{ "mm_picture", BARE },  /* kernel/mm_setup.c: print the memory picture's lines at boot */
	{ "nosmp", BARE },       /* here (cmdline_cpu_limit()): the boot CPU alone */
	{ "nr_cpus", VALUE },    /* here (cmdline_cpu_limit()): at most this many CPUs */
	{ "page_owner", VALUE }, /* here (cmdline_page_owner()): page_owner=on records owners */
	{ "screen", VALUE },     /* kernel/console/screen.c: screen=off */
	{ "slub_debug", BARE },  /* kernel/mm_setup.c: the slab allocator's debug mode (mm/slab.h) */
	{ "smp_fault", VALUE },  /* test kernel: CPUs that fail to start (tests/ktest/kernel/smp_fault.c) */
};

/* The word at or after s (NULL when none is left), its length in *len. */
static const char *next_word(const char *s, size_t *len)
{
	if (!s)
		return NULL;
	while (*s == ' ')
		s++;
	if (!*s)
		return NULL;
	for (*len = 0; s[*len] && s[*len] != ' '; (*len)++)
		;
	return s;
}

#define for_each_word(w, len, cmdline) \
	for ((w) = next_word((cmdline), &(len)); (w); (w) = next_word((w) + (len), &(len)))

/* Is the word w[0..len) "key=..." for the key of length klen? */
static bool word_has_key(const char *w, size_t len, const char *key, size_t klen)
{
	return len > klen && w[klen] == '=' && !memcmp(w, key, klen);
}

bool cmdline_has(const char *cmdline, const char *word)
{
	size_t wlen = strlen(word), len;
	const char *w;

	for_each_word(w, len, cmdline)
		if (len == wlen && !memcmp(w, word, len))
			return true;
	return false;
}

const char *cmdline_value(const char *cmdline, const char *key, size_t *len)
{
	size_t klen = strlen(key), n;
	const char *w, *value = NULL;

	*len = 0;
	for_each_word(w, n, cmdline) {
		if (word_has_key(w, n, key, klen)) {
			value = w + klen + 1;
			*len = n - klen - 1;
		}
	}
	return value;
}

bool cmdline_get(const char *cmdline, const char *key, char *buf, size_t size)
{
	size_t len;
	const char *value = cmdline_value(cmdline, key, &len);

	if (size)
		buf[0] = '\0';
	if (!value || len >= size)
		return false;
	memcpy(buf, value, len);
	buf[len] = '\0';
	return true;
}

/* ---- known and unknown options ------------------------------------------------------------ */

bool cmdline_word_known(const char *s, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(options); i++) {
		size_t nlen = strlen(options[i].name);
		if (options[i].form == BARE && len == nlen && !memcmp(s, options[i].name, len))
			return true;
		if (options[i].form == VALUE && word_has_key(s, len, options[i].name, nlen))
			return true;
	}
	return false;
}

int cmdline_warn_unknown(const char *cmdline, cmdline_warn_fn *warn)
{
	const char *w;
	size_t len;
	int n = 0;

	for_each_word(w, len, cmdline) {
		if (cmdline_word_known(w, len))
			continue;
		if (!n++)
			warn("Unknown kernel command line parameters \"");
		warn("%s%.*s", n > 1 ? " " : "", (int)len, w);
	}
	if (n)
		warn("\", will be ignored.\n");
	return n;
}

/* ---- nosmp and nr_cpus= ------------------------------------------------------------------- */

static bool parse_ulong(const char *s, size_t len, unsigned long *out);

unsigned int cmdline_cpu_limit(const char *cmdline, cmdline_warn_fn *warn)
{
	unsigned int limit = cmdline_has(cmdline, "nosmp") ? 1 : CMDLINE_NO_CPU_LIMIT;
	unsigned long n;
	size_t len;
	const char *v = cmdline_value(cmdline, "nr_cpus", &len);

	if (!v)
		return limit;
	if (!parse_ulong(v, len, &n) || n == 0) {
		warn("smp: ignoring nr_cpus=%.*s: not a number of CPUs (1 or more)\n", (int)len, v);
		return limit;
	}
	return n < limit ? (unsigned int)n : limit;
}

/* ---- page_owner= ------------------------------------------------------------------------- */

bool cmdline_page_owner(const char *cmdline, cmdline_warn_fn *warn)
{
	size_t len;
	const char *v = cmdline_value(cmdline, "page_owner", &len);

	if (!v || (len == 3 && !memcmp(v, "off", 3)))
		return false;
	if (len == 2 && !memcmp(v, "on", 2))
		return true;
	warn("page_owner: ignoring page_owner=%.*s: say on or off\n", (int)len, v);
	return false;
}

/* ---- hugepagesz= and hugepages= ----------------------------------------------------------- */

/* Where the hugetlb options stand while they are read from left to right. */
struct hugetlb_opts {
	unsigned int order;   /* the pool the next hugepages= is for */
	const char *bad_size; /* the invalid hugepagesz= word in force (NULL when none), */
	size_t bad_len;       /* and its length */
	cmdline_warn_fn *warn;
};

/* Parses the decimal number s[0..len); false when it is not one or does not fit. */
static bool parse_ulong(const char *s, size_t len, unsigned long *out)
{
	unsigned long v = 0;

	if (!len)
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned int d = (unsigned int)(s[i] - '0');
		if (d > 9 || v > (~0UL - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

/* The order of the huge page size s[0..len) ("2M", "2048K", "1G", "1073741824"), or -1. */
static int parse_size_order(const char *s, size_t len)
{
	unsigned long bytes, pages;
	unsigned int shift = 0;

	if (len && (s[len - 1] | 0x20) == 'k')
		shift = 10;
	else if (len && (s[len - 1] | 0x20) == 'm')
		shift = 20;
	else if (len && (s[len - 1] | 0x20) == 'g')
		shift = 30;
	if (!parse_ulong(s, len - (shift != 0), &bytes) || bytes > (~0UL >> shift))
		return -1;
	bytes <<= shift;
	pages = bytes / PAGE_SIZE;
	if (!pages || bytes % PAGE_SIZE || (pages & (pages - 1)))
		return -1;
	return hugetlb_has_order((unsigned int)__builtin_ctzl(pages)) ? __builtin_ctzl(pages) : -1;
}

/* "2M", "1G": the size of a huge page of the given order, for messages. */
static const char *size_name(unsigned int order, char *buf, size_t size)
{
	unsigned long kb = (PAGE_SIZE << order) >> 10;

	if (kb >= (1UL << 20) && !(kb & ((1UL << 20) - 1)))
		snprintf(buf, size, "%luG", kb >> 20);
	else if (kb >= 1024 && !(kb & 1023))
		snprintf(buf, size, "%luM", kb >> 10);
	else
		snprintf(buf, size, "%luK", kb);
	return buf;
}

/* hugepagesz=SIZE: the pool for the hugepages= that follow. Returns the number of warnings. */
static int set_size(struct hugetlb_opts *o, const char *w, size_t len)
{
	int order = parse_size_order(w + 11, len - 11);
	char a[16], b[16];

	if (order >= 0) {
		o->order = (unsigned int)order;
		o->bad_size = NULL;
		return 0;
	}
	o->bad_size = w;
	o->bad_len = len;
	o->warn("hugetlb: ignoring %.*s: not a huge page size (%s or %s); the hugepages= after it "
		"are ignored too\n", (int)len, w, size_name(HPAGE_ORDER, a, sizeof(a)),
		size_name(GIGANTIC_ORDER, b, sizeof(b)));
	return 1;
}

/* hugepages=N: asks the pool in force for N pages. Returns the number of warnings. */
static int request_pages(struct hugetlb_opts *o, const char *w, size_t len)
{
	unsigned long n, kept;
	char name[16];

	if (o->bad_size) {
		o->warn("hugetlb: ignoring %.*s: it follows %.*s, which is not a huge page size\n",
			(int)len, w, (int)o->bad_len, o->bad_size);
		return 1;
	}
	if (!parse_ulong(w + 10, len - 10, &n)) {
		o->warn("hugetlb: ignoring %.*s: not a number of pages\n", (int)len, w);
		return 1;
	}
	kept = hugetlb_request(o->order, n);
	if (kept == n)
		return 0;
	o->warn("hugetlb: %.*s asks for %lu pages of %s; using %lu, the most that pool takes\n",
		(int)len, w, n, size_name(o->order, name, sizeof(name)), kept);
	return 1;
}

int cmdline_setup_hugetlb(const char *cmdline, cmdline_warn_fn *warn)
{
	struct hugetlb_opts o = { .order = HPAGE_ORDER, .warn = warn };
	const char *w;
	size_t len;
	int warnings = 0;

	for_each_word(w, len, cmdline) {
		if (word_has_key(w, len, "hugepagesz", 10))
			warnings += set_size(&o, w, len);
		else if (word_has_key(w, len, "hugepages", 9))
			warnings += request_pages(&o, w, len);
	}
	return warnings;
}

int hugetlb_setup_cmdline(const char *cmdline)
{
	return cmdline_setup_hugetlb(cmdline, printk) ? -EINVAL : 0;
}
