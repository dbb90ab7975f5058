/* SPDX-License-Identifier: MIT */
/*
 * The hugetlb options hugepagesz= and hugepages= (kernel/hugetlb_cmdline.h): read from left to
 * right and handed to mm/hugetlb.c as numbers.
 */
#include "kernel/hugetlb_cmdline.h"

#include "lib/printk.h"
#include "mm/hugetlb.h"

CMDLINE_OPTION(hugepages, "hugepages", CMDLINE_VALUE);   /* how many huge pages to put in the pool */
CMDLINE_OPTION(hugepagesz, "hugepagesz", CMDLINE_VALUE); /* which size the hugepages= after it is for */

/* Where the hugetlb options stand while they are read from left to right. */
struct hugetlb_opts {
	unsigned int order;   /* the pool the next hugepages= is for */
	const char *bad_size; /* the invalid hugepagesz= word in force (NULL when none), */
	size_t bad_len;       /* and its length */
	cmdline_warn_fn *warn;
};

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
	if (!cmdline_parse_ulong(s, len - (shift != 0), &bytes) || bytes > (~0UL >> shift))
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
	if (!cmdline_parse_ulong(w + 10, len - 10, &n)) {
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

	cmdline_for_each_word(w, len, cmdline) {
		if (cmdline_word_has_key(w, len, "hugepagesz", 10))
			warnings += set_size(&o, w, len);
		else if (cmdline_word_has_key(w, len, "hugepages", 9))
			warnings += request_pages(&o, w, len);
	}
	return warnings;
}

int hugetlb_setup_cmdline(const char *cmdline)
{
	return cmdline_setup_hugetlb(cmdline, printk) ? -EINVAL : 0;
}
