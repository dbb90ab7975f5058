/* SPDX-License-Identifier: MIT */
/*
 * Reading a firmware memory map from the text Linux prints at boot ("BIOS-e820:" and
 * "efi: memNN:" lines) into raw e820 entries and EFI descriptors. Host only; see
 * tests/mm/map_text.h for the forms.
 */
#define _GNU_SOURCE
#include "tests/mm/map_text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A cursor over one line. */
struct cursor {
	const char *p, *end;
};

/* Advances past s if the text at the cursor starts with it. */
static bool eat(struct cursor *c, const char *s)
{
	size_t n = strlen(s);

	if ((size_t)(c->end - c->p) < n || memcmp(c->p, s, n))
		return false;
	c->p += n;
	return true;
}

/* Moves the cursor just past the first occurrence of s; false if there is none. */
static bool seek(struct cursor *c, const char *s)
{
	for (const char *q = c->p; q < c->end; q++) {
		struct cursor t = { q, c->end };
		if (eat(&t, s)) {
			c->p = t.p;
			return true;
		}
	}
	return false;
}

/* True when only white space is left. */
static bool at_end(struct cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\r'))
		c->p++;
	return c->p == c->end;
}

static int digit_value(char ch, unsigned int base)
{
	int v = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
		: ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : 99;
	return v < (int)base ? v : -1;
}

/* Reads an unsigned number in base (with "0x" first when base is 16); false on none or overflow. */
static bool number(struct cursor *c, unsigned int base, uint64_t *out)
{
	uint64_t v = 0;
	const char *start;

	if (base == 16 && !eat(c, "0x"))
		return false;
	start = c->p;
	for (int d; c->p < c->end && (d = digit_value(*c->p, base)) >= 0; c->p++) {
		if (v > (UINT64_MAX - (uint64_t)d) / base)
			return false;
		v = v * base + (uint64_t)d;
	}
	*out = v;
	return c->p > start;
}

/* The e820 type number named by the rest of the line (and nothing after it), or 0. */
static uint32_t e820_type_named(struct cursor *c)
{
	static const struct { const char *name; uint32_t type; } names[] = {
		{ "usable", 1 }, { "reserved", 2 }, { "ACPI data", 3 }, { "ACPI NVS", 4 }, { "unusable", 5 },
	};
	uint64_t n;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (eat(c, names[i].name))
			return at_end(c) ? names[i].type : 0;
	if (eat(c, "persistent (type ") && number(c, 10, &n) && eat(c, ")"))
		return at_end(c) ? 7 : 0;
	if (eat(c, "type ") && number(c, 10, &n) && n && n <= UINT32_MAX && at_end(c))
		return (uint32_t)n;
	return 0;
}

/* Makes room for one more element in *array (capacity *cap, elements n); false when it cannot. */
static bool grow(void **array, uint32_t *cap, uint32_t n, size_t elem, const char *what)
{
	void *p;

	if (n < *cap)
		return true;
	if (n >= MAP_TEXT_MAX_ENTRIES) {
		fprintf(stderr, "map: more than %u %s entries: not a firmware memory map\n",
			MAP_TEXT_MAX_ENTRIES, what);
		return false;
	}
	p = realloc(*array, (size_t)(*cap ? 2 * *cap : 64) * elem);
	if (!p) {
		fprintf(stderr, "map: out of memory at %u %s entries\n", n, what);
		return false;
	}
	*array = p;
	*cap = *cap ? 2 * *cap : 64;
	return true;
}

/* "[mem 0xS-0xE] TYPE", END inclusive. */
static int parse_e820(struct map_text *mt, struct cursor *c)
{
	uint64_t s, e, len;
	uint32_t type;

	if (!eat(c, "[mem ") || !number(c, 16, &s) || !eat(c, "-") || !number(c, 16, &e) ||
	    !eat(c, "] ") || !(type = e820_type_named(c)))
		return -EINVAL;
	/* END = START - 1 is the way Linux prints an empty entry; END < START - 1 is empty too. */
	len = e < s ? 0 : e - s == UINT64_MAX ? UINT64_MAX : e - s + 1;
	if (!grow((void **)&mt->e820, &mt->cap_e820, mt->ne820, sizeof(*mt->e820), "e820"))
		return -ENOMEM;
	mt->e820[mt->ne820++] = (struct mb2_mmap_entry){ .base_addr = s, .length = len, .type = type };
	return 0;
}

/* "type=T, attr=0xA, range=[0xS-0xE)" and maybe " (NMB)", END exclusive. */
static int parse_efi(struct map_text *mt, struct cursor *c)
{
	uint64_t t, attr, s, e, mb;

	if (!seek(c, ": type=") || !number(c, 10, &t) || t > UINT32_MAX || !eat(c, ", attr=") ||
	    !number(c, 16, &attr) || !eat(c, ", range=[") || !number(c, 16, &s) || !eat(c, "-") ||
	    !number(c, 16, &e) || !eat(c, ")") || (s & (PAGE_SIZE - 1)) || (e > s && ((e - s) & (PAGE_SIZE - 1))))
		return -EINVAL;
	if (eat(c, " (") && !(number(c, 10, &mb) && eat(c, "MB)")))
		return -EINVAL;
	if (!at_end(c))
		return -EINVAL;
	if (!grow((void **)&mt->efi, &mt->cap_efi, mt->nefi, sizeof(*mt->efi), "EFI"))
		return -ENOMEM;
	mt->efi[mt->nefi++] = (struct efi_memory_descriptor){
		.type = (uint32_t)t, .phys_start = s, .num_pages = e > s ? (e - s) >> PAGE_SHIFT : 0, .attribute = attr,
	};
	return 0;
}

/* "node N 0xSTART-0xEND" after "node ": one more range of node N. */
static int parse_node(struct map_text *mt, struct cursor *c)
{
	struct mm_numa_layout *l = &mt->numa;
	uint64_t n, s, e;

	if (!number(c, 10, &n) || n >= MAX_NUMNODES || !eat(c, " ") || !number(c, 16, &s) || !eat(c, "-") ||
	    !number(c, 16, &e) || !at_end(c) || l->nr_ranges >= MM_MAX_NODE_RANGES)
		return -EINVAL;
	l->ranges[l->nr_ranges++] = (struct mm_node_range){ s, e, (unsigned int)n };
	l->nr_nodes = MAX(l->nr_nodes, (unsigned int)n + 1);
	return 0;
}

/* "distance A B D" after "distance ". */
static int parse_distance(struct map_text *mt, struct cursor *c)
{
	uint64_t a, b, d;

	if (!number(c, 10, &a) || a >= MAX_NUMNODES || !eat(c, " ") || !number(c, 10, &b) || b >= MAX_NUMNODES ||
	    !eat(c, " ") || !number(c, 10, &d) || d > 255 || !at_end(c))
		return -EINVAL;
	mt->numa.distance[a][b] = (uint8_t)d;
	return 0;
}

const struct mm_numa_layout *map_text_numa(struct map_text *mt)
{
	struct mm_numa_layout *l = &mt->numa;

	if (!l->nr_ranges)
		return NULL;
	for (unsigned int a = 0; a < MAX_NUMNODES; a++)
		for (unsigned int b = 0; b < MAX_NUMNODES; b++)
			if (!l->distance[a][b])
				l->distance[a][b] = a == b ? LOCAL_DISTANCE : REMOTE_DISTANCE;
	return l;
}

int map_text_parse_line(struct map_text *mt, const char *line, size_t len, unsigned int lineno)
{
	struct cursor c = { line, line + len };
	bool entry = true; /* a memory map line, not a node's */
	int err;

	while (c.p < c.end && (*c.p == ' ' || *c.p == '\t'))
		c.p++;
	if (c.p == c.end || *c.p == '#')
		return 0;
	if (seek(&c, "BIOS-e820: "))
		err = parse_e820(mt, &c);
	else if (seek(&c, "efi: mem"))
		err = parse_efi(mt, &c);
	else if (eat(&c, "node "))
		err = parse_node(mt, &c), entry = false;
	else if (eat(&c, "distance "))
		err = parse_distance(mt, &c), entry = false;
	else
		return 0;
	if (err == -EINVAL)
		fprintf(stderr, "map: line %u: malformed memory map line: %.*s\n", lineno,
			(int)MIN(len, 200), line);
	return err ? err : entry;
}

int map_text_parse(struct map_text *mt, const char *text, size_t len)
{
	unsigned int lineno = 0;
	int added = 0;

	for (const char *p = text, *end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		int r = map_text_parse_line(mt, p, n, ++lineno);

		if (r < 0)
			return r;
		added += r;
		p += n + 1;
	}
	return added;
}

int map_text_read_file(struct map_text *mt, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	unsigned int lineno = 0;
	int added = 0, r = 0;
	ssize_t n;

	if (!f) {
		r = -errno;
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return r;
	}
	while (r >= 0 && (n = getline(&line, &cap, f)) >= 0) {
		if (n && line[n - 1] == '\n')
			n--;
		r = map_text_parse_line(mt, line, (size_t)n, ++lineno);
		added += r > 0;
	}
	if (r >= 0 && ferror(f)) {
		r = -EIO;
		fprintf(stderr, "%s: read error after line %u\n", path, lineno);
	}
	if (r < 0)
		fprintf(stderr, "%s: line %u: map not read\n", path, lineno);
	free(line);
	fclose(f);
	return r < 0 ? r : added;
}

bool map_text_raw(const struct map_text *mt, struct boot_memmap *raw)
{
	if (mt->nefi)
		*raw = (struct boot_memmap){ BOOT_MEMMAP_EFI, (const uint8_t *)mt->efi, mt->nefi, sizeof(*mt->efi) };
	else if (mt->ne820)
		*raw = (struct boot_memmap){ BOOT_MEMMAP_E820, (const uint8_t *)mt->e820, mt->ne820, sizeof(*mt->e820) };
	else
		return false;
	return true;
}

void map_text_free(struct map_text *mt)
{
	free(mt->e820);
	free(mt->efi);
	*mt = (struct map_text){ 0 };
}
