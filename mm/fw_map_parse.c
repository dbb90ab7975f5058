/*
 * Reading a firmware memory map from the text Linux prints at boot ("BIOS-e820:" and
 * "efi: memNN:" lines). Host only; see mm/fw_map_parse.h for the forms.
 */
#include "mm/fw_map_parse.h"

#include "lib/printk.h"
#include <string.h> /* host only: memchr */

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

/* The e820 type named by the rest of the line, or 0. */
static uint32_t e820_type_named(struct cursor *c)
{
	static const struct { const char *name; uint32_t type; } names[] = {
		{ "usable", FW_USABLE }, { "reserved", FW_RESERVED }, { "ACPI data", FW_ACPI },
		{ "ACPI NVS", FW_NVS }, { "unusable", FW_UNUSABLE }, { "persistent (type ", FW_PERSISTENT },
	};
	uint64_t n;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (eat(c, names[i].name))
			return names[i].type == FW_PERSISTENT ? (number(c, 10, &n) ? FW_PERSISTENT : 0) : names[i].type;
	if (eat(c, "type ") && number(c, 10, &n) && n && n <= UINT32_MAX)
		return (uint32_t)n;
	return 0;
}

/* "[mem 0xS-0xE] TYPE", END inclusive. */
static int parse_e820(struct fw_map *map, struct cursor *c)
{
	uint64_t s, e;
	uint32_t type;

	if (!eat(c, "[mem ") || !number(c, 16, &s) || !eat(c, "-") || !number(c, 16, &e) ||
	    !eat(c, "] ") || !(type = e820_type_named(c)))
		return -EINVAL;
	/* END = START - 1 is the way Linux prints an empty entry; END < START - 1 is empty too. */
	if (e < s)
		return fw_map_add_e820(map, s, 0, type);
	return fw_map_add_e820(map, s, e - s == UINT64_MAX ? UINT64_MAX : e - s + 1, type);
}

/* "type=T, attr=0xA, range=[0xS-0xE)", END exclusive. */
static int parse_efi(struct fw_map *map, struct cursor *c)
{
	uint64_t t, attr, s, e;

	if (!seek(c, ": type=") || !number(c, 10, &t) || t > UINT32_MAX || !eat(c, ", attr=") ||
	    !number(c, 16, &attr) || !eat(c, ", range=[") || !number(c, 16, &s) || !eat(c, "-") ||
	    !number(c, 16, &e) || !eat(c, ")"))
		return -EINVAL;
	return fw_map_add_range(map, s, e > s ? e - s : 0, fw_type_from_efi((uint32_t)t, attr));
}

int fw_map_parse_line(struct fw_map *map, const char *line, size_t len, unsigned int lineno)
{
	struct cursor c = { line, line + len };
	int err;

	while (c.p < c.end && (*c.p == ' ' || *c.p == '\t'))
		c.p++;
	if (c.p == c.end || *c.p == '#')
		return 0;
	if (seek(&c, "BIOS-e820: "))
		err = parse_e820(map, &c);
	else if (seek(&c, "efi: mem"))
		err = parse_efi(map, &c);
	else
		return 0;
	if (err == -EINVAL)
		printk("fw_map: line %u: malformed memory map line: %.*s\n", lineno, (int)len, line);
	return err ? err : 1;
}

int fw_map_parse_text(struct fw_map *map, const char *text, size_t len)
{
	unsigned int lineno = 0;
	int added = 0;

	for (const char *p = text, *end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		int r = fw_map_parse_line(map, p, n && p[n - 1] == '\r' ? n - 1 : n, ++lineno);

		if (r < 0)
			return r;
		added += r;
		p += n + 1;
	}
	return added;
}
