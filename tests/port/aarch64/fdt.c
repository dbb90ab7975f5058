/* SPDX-License-Identifier: MIT */
/*
 * The flattened device tree reader (fdt.h), following the Devicetree Specification's chapter 5:
 * a header of big-endian words, the memory reservation block (address, size pairs ending in
 * 0, 0), the structure block (tokens BEGIN_NODE name, PROP len nameoff value, END_NODE, NOP,
 * END, each 4-byte aligned) and the strings block the property names point into.
 */
#include "tests/port/aarch64/fdt.h"

#include <stddef.h>

#include "lib/printk.h"
#include "lib/string.h"

enum { TOKEN_BEGIN_NODE = 1, TOKEN_END_NODE = 2, TOKEN_PROP = 3, TOKEN_NOP = 4, TOKEN_END = 9 };
#define MAX_DEPTH 16 /* QEMU's tree is 4 deep */

/* The nodes on the path from the root to the current one, with what matters of each. */
struct node {
	const char *name;
	const uint8_t *reg, *size;
	uint32_t reg_len;
	uint32_t addr_cells, size_cells; /* for its children: from its #address-cells, #size-cells */
	bool memory_type, pl011, no_map;
	enum fdt_psci psci;
};

struct walk {
	const uint8_t *blob, *structs, *strings;
	uint32_t struct_size, strings_size, pos;
	struct node path[MAX_DEPTH];
	int depth; /* path[depth - 1] is the current node; 0 before the root */
	struct fdt_info *info;
};

/* Reads the DTB byte by byte: it may be read with the MMU off, where unaligned loads fault. */
static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const uint8_t *p)
{
	return (uint64_t)be32(p) << 32 | be32(p + 4);
}

/* A number of cells (1 or 2) at p. */
static uint64_t read_cells(const uint8_t *p, uint32_t cells)
{
	return cells == 2 ? be64(p) : be32(p);
}

static uint32_t align4(uint32_t n)
{
	return (n + 3) & ~3u;
}

static int add_range(struct fdt_range *list, unsigned int *n, const char *list_name,
		     struct fdt_range r)
{
	if (*n == FDT_MAX_RANGES)
		return parse_fail("device tree: more than %d %s ranges", FDT_MAX_RANGES, list_name);
	list[(*n)++] = r;
	return 0;
}

static int check_header(const uint8_t *b, struct fdt_info *info)
{
	uint32_t total = be32(b + 4), version = be32(b + 20), last_comp = be32(b + 24);

	if (be32(b) != FDT_MAGIC)
		return parse_fail("device tree: magic %#x, want %#x", be32(b), FDT_MAGIC);
	if (total < 40 || total > FDT_MAX_BYTES)
		return parse_fail("device tree: totalsize %u outside [40, %u]", total, FDT_MAX_BYTES);
	if (version < 17 || last_comp > 17)
		return parse_fail("device tree: version %u (compatible with %u), want 17", version, last_comp);
	uint32_t soff = be32(b + 8), ssize = be32(b + 36), stroff = be32(b + 12), strsize = be32(b + 32);
	uint32_t rsv = be32(b + 16);
	if (soff > total || ssize > total - soff || soff % 4 || stroff > total || strsize > total - stroff)
		return parse_fail("device tree: structure [%#x +%#x] or strings [%#x +%#x] outside the %u bytes",
				  soff, ssize, stroff, strsize, total);
	if (rsv % 8 || rsv < 40 || rsv >= total)
		return parse_fail("device tree: memory reservation block at %#x (of %u bytes)", rsv, total);
	info->totalsize = total;
	return 0;
}

/* The memory reservation block: (address, size) pairs up to a pair of zeros; empty ones skipped. */
static int read_memreserve(const uint8_t *b, struct fdt_info *info)
{
	uint32_t total = be32(b + 4);

	for (uint32_t off = be32(b + 16);; off += 16) {
		if (off > total - 16)
			return parse_fail("device tree: the memory reservation block runs past the end");
		uint64_t base = be64(b + off), size = be64(b + off + 8);
		if (!base && !size)
			return 0;
		if (size && add_range(info->reserved, &info->nreserved, "reserved",
			      (struct fdt_range){ base, size, "memreserve", false }))
			return -1;
	}
}

/* Does the string list (a compatible property) of len bytes at p hold s? */
static bool string_list_has(const uint8_t *p, uint32_t len, const char *s)
{
	size_t n = strlen(s);

	for (uint32_t i = 0; i < len;) {
		size_t item = strnlen((const char *)p + i, len - i);
		if (item == n && !memcmp(p + i, s, n))
			return true;
		i += (uint32_t)item + 1;
	}
	return false;
}

static bool prop_is_string(const uint8_t *v, uint32_t len, const char *s)
{
	return len == strlen(s) + 1 && !memcmp(v, s, len);
}

/* A cell count (PCI buses have 3, interrupt controllers 0): checked where a reg is read. */
static int read_cell_count(const uint8_t *v, uint32_t len, const char *name, uint32_t *out)
{
	if (len != 4)
		return parse_fail("device tree: %s has %u bytes, not one cell", name, len);
	*out = be32(v);
	return 0;
}

/* The reg of a child of parent is read as 1 or 2 cells of address and of size: nothing else. */
static int check_cells(const struct node *n, const struct node *parent)
{
	if (parent->addr_cells < 1 || parent->addr_cells > 2 || parent->size_cells < 1 || parent->size_cells > 2)
		return parse_fail("device tree: %s's reg in %u address and %u size cells, want 1 or 2 of each",
				  n->name, parent->addr_cells, parent->size_cells);
	return 0;
}

/* Takes one property of the current node. */
static int take_prop(struct walk *w, const char *name, const uint8_t *v, uint32_t len)
{
	struct node *n = &w->path[w->depth - 1];

	if (!strcmp(name, "#address-cells"))
		return read_cell_count(v, len, name, &n->addr_cells);
	if (!strcmp(name, "#size-cells"))
		return read_cell_count(v, len, name, &n->size_cells);
	if (!strcmp(name, "reg"))
		n->reg = v, n->reg_len = len;
	else if (!strcmp(name, "size"))
		n->size = v;
	else if (!strcmp(name, "no-map"))
		n->no_map = true;
	else if (!strcmp(name, "device_type"))
		n->memory_type = prop_is_string(v, len, "memory");
	else if (!strcmp(name, "compatible"))
		n->pl011 = string_list_has(v, len, "arm,pl011");
	else if (!strcmp(name, "method"))
		n->psci = prop_is_string(v, len, "hvc") ? FDT_PSCI_HVC :
			  prop_is_string(v, len, "smc") ? FDT_PSCI_SMC : FDT_PSCI_NONE;
	return 0;
}

/* Adds every (address, size) entry of node n's reg, in its parent's cells, to a list. */
static int take_reg(const struct node *n, const struct node *parent, struct fdt_range *list,
		    unsigned int *count, const char *list_name, const char *what)
{
	uint32_t entry = (parent->addr_cells + parent->size_cells) * 4;

	if (check_cells(n, parent))
		return -1;
	if (n->reg_len % entry)
		return parse_fail("device tree: %s's reg has %u bytes, not entries of %u", n->name, n->reg_len, entry);
	for (uint32_t off = 0; off < n->reg_len; off += entry) {
		const uint8_t *p = n->reg + off;
		struct fdt_range r = { read_cells(p, parent->addr_cells),
				       read_cells(p + parent->addr_cells * 4, parent->size_cells), what, n->no_map };
		if (r.size && add_range(list, count, list_name, r))
			return -1;
	}
	return 0;
}

static bool name_is(const char *name, const char *base)
{
	size_t n = strlen(base);

	return !strncmp(name, base, n) && (name[n] == '\0' || name[n] == '@');
}

/* The node at the top of the path ends: what it was decides where its reg goes. */
static int end_node(struct walk *w)
{
	const struct node *n = &w->path[w->depth - 1], *parent = w->depth > 1 ? n - 1 : NULL;
	struct fdt_info *info = w->info;

	if (w->depth == 2 && (n->memory_type || name_is(n->name, "memory")) && n->reg)
		return take_reg(n, parent, info->memory, &info->nmemory, "memory", "memory");
	if (w->depth == 2 && n->pl011 && n->reg && !info->uart_base) {
		if (check_cells(n, parent))
			return -1;
		if (n->reg_len < parent->addr_cells * 4)
			return parse_fail("device tree: %s's reg has %u bytes, no address", n->name, n->reg_len);
		info->uart_base = read_cells(n->reg, parent->addr_cells);
	}
	if (w->depth == 2 && name_is(n->name, "psci"))
		info->psci = n->psci;
	if (w->depth == 3 && name_is(parent->name, "reserved-memory")) {
		if (n->reg)
			return take_reg(n, parent, info->reserved, &info->nreserved, "reserved",
					n->no_map ? "reserved-memory no-map" : "reserved-memory");
		info->ndynamic += n->size != NULL;
	}
	return 0;
}

/*
 * Moves the walk n bytes on, which must stay inside the structure block: its size need not be a
 * multiple of 4, and a position past it would make every "bytes left" below wrap around.
 */
static int advance(struct walk *w, uint32_t n, const char *what)
{
	if (n > w->struct_size - w->pos)
		return parse_fail("device tree: %s runs past the structure block", what);
	w->pos += n;
	return 0;
}

/* Takes a BEGIN_NODE's name at the walk's position and pushes the node. */
static int begin_node(struct walk *w)
{
	const char *name = (const char *)w->structs + w->pos;
	size_t len = strnlen(name, w->struct_size - w->pos);

	if (len == w->struct_size - w->pos)
		return parse_fail("device tree: a node name runs past the structure block");
	if (w->depth == MAX_DEPTH)
		return parse_fail("device tree: nodes nested deeper than %d", MAX_DEPTH);
	/* The specification's defaults for a node that does not say: 2 address cells, 1 size cell. */
	w->path[w->depth++] = (struct node){ .name = name, .addr_cells = 2, .size_cells = 1 };
	return advance(w, align4((uint32_t)len + 1), "a node name");
}

/* Takes a PROP token's header, name and value at the walk's position. */
static int prop(struct walk *w)
{
	if (w->struct_size - w->pos < 8)
		return parse_fail("device tree: a property header runs past the structure block");
	uint32_t len = be32(w->structs + w->pos), nameoff = be32(w->structs + w->pos + 4);
	w->pos += 8;
	if (len > w->struct_size - w->pos)
		return parse_fail("device tree: a property of %u bytes runs past the structure block", len);
	if (nameoff >= w->strings_size ||
	    strnlen((const char *)w->strings + nameoff, w->strings_size - nameoff) == w->strings_size - nameoff)
		return parse_fail("device tree: a property name at %#x outside the strings block", nameoff);
	if (!w->depth)
		return parse_fail("device tree: a property outside every node");
	const uint8_t *value = w->structs + w->pos;
	if (advance(w, align4(len), "a property's padding"))
		return -1;
	return take_prop(w, (const char *)w->strings + nameoff, value, len);
}

/* One token at the walk's position: 1 at END, 0 to go on, -1 on an error. */
static int step(struct walk *w)
{
	if (w->struct_size - w->pos < 4)
		return parse_fail("device tree: the structure block ends without an END token");
	uint32_t token = be32(w->structs + w->pos);
	w->pos += 4;
	switch (token) {
	case TOKEN_BEGIN_NODE:
		return begin_node(w);
	case TOKEN_END_NODE:
		if (!w->depth)
			return parse_fail("device tree: END_NODE without a node");
		if (end_node(w))
			return -1;
		w->depth--;
		return 0;
	case TOKEN_PROP:
		return prop(w);
	case TOKEN_NOP:
		return 0;
	case TOKEN_END:
		return w->depth ? parse_fail("device tree: END inside a node") : 1;
	default:
		return parse_fail("device tree: unknown token %#x at %#x of the structure block", token, w->pos - 4);
	}
}

int fdt_parse(const void *blob, struct fdt_info *info)
{
	const uint8_t *b = blob;
	static struct walk w; /* over 1 KiB: not on the stack */
	int r;

	memset(info, 0, sizeof(*info));
	if (check_header(b, info) || read_memreserve(b, info))
		return -1;
	w = (struct walk){ .blob = b, .structs = b + be32(b + 8), .strings = b + be32(b + 12),
			   .struct_size = be32(b + 36), .strings_size = be32(b + 32), .info = info };
	while (!(r = step(&w)))
		;
	if (r < 0)
		return -1;
	if (!info->nmemory)
		return parse_fail("device tree: no /memory node with a reg");
	return 0;
}
