/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of the device tree reader (fdt.h) on trees built here, byte by byte: a well-formed
 * one is read whole (RAM, both kinds of reservation in their own cells, an empty one skipped, the
 * UART, PSCI), and each kind of malformed one is refused with a message saying what is wrong,
 * never read in part.
 */
#include "tests/ktest/ktest.h"
#include "tests/port/aarch64/fdt.h"

#include "lib/printk.h"
#include "lib/string.h"

enum { BEGIN_NODE = 1, END_NODE = 2, PROP = 3, END = 9 };
#define HEADER_BYTES 40

/* The tree being built: its structure block, strings block and memory reservations. */
static struct {
	uint8_t structs[1024];
	uint32_t structs_len;
	char strings[256];
	uint32_t strings_len;
	uint64_t rsv[2 * 4];
	unsigned int nrsv;
} tree;
static uint8_t blob[2048] __attribute__((aligned(8)));

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

static void put_bytes(const void *v, uint32_t len)
{
	memcpy(tree.structs + tree.structs_len, v, len);
	memset(tree.structs + tree.structs_len + len, 0, (4 - len % 4) % 4);
	tree.structs_len += (len + 3) & ~3u;
}

static void token(uint32_t v)
{
	put32(tree.structs + tree.structs_len, v);
	tree.structs_len += 4;
}

static void begin(const char *name)
{
	token(BEGIN_NODE);
	put_bytes(name, (uint32_t)strlen(name) + 1);
}

static void prop(const char *name, const void *value, uint32_t len)
{
	token(PROP);
	token(len);
	token(tree.strings_len);
	memcpy(tree.strings + tree.strings_len, name, strlen(name) + 1);
	tree.strings_len += (uint32_t)strlen(name) + 1;
	put_bytes(value, len);
}

/* A property of n big-endian cells. */
static void prop_cells(const char *name, unsigned int n, const uint32_t *cells)
{
	uint8_t v[64];

	for (unsigned int i = 0; i < n; i++)
		put32(v + 4 * i, cells[i]);
	prop(name, v, 4 * n);
}

static void prop_str(const char *name, const char *s)
{
	prop(name, s, (uint32_t)strlen(s) + 1);
}

/* The root's cells, then /memory with reg (n cells) and a PL011: a tree's usual start. */
static void start_tree(uint32_t addr_cells, uint32_t size_cells, unsigned int n, const uint32_t *reg)
{
	memset(&tree, 0, sizeof(tree));
	begin("");
	prop_cells("#address-cells", 1, &addr_cells);
	prop_cells("#size-cells", 1, &size_cells);
	begin("memory@40000000");
	prop_str("device_type", "memory");
	prop_cells("reg", n, reg);
	token(END_NODE);
	begin("pl011@9000000");
	prop("compatible", "arm,pl011\0arm,primecell", 24);
	prop_cells("reg", 4, (const uint32_t[]){ 0, 0x9000000, 0, 0x1000 });
	token(END_NODE);
}

static const uint32_t ram_reg[4] = { 0, 0x40000000, 0, 0x10000000 };

/* Lays the tree out as a blob (header, reservations, structure, strings); returns it. */
static const void *finish(void)
{
	uint32_t rsv_bytes = 16 * (tree.nrsv + 1), off_struct = HEADER_BYTES + rsv_bytes;
	uint32_t off_strings = off_struct + tree.structs_len, total = off_strings + tree.strings_len;

	memset(blob, 0, sizeof(blob));
	for (unsigned int i = 0; i < 2 * tree.nrsv; i++) {
		put32(blob + HEADER_BYTES + 8 * i, (uint32_t)(tree.rsv[i] >> 32));
		put32(blob + HEADER_BYTES + 8 * i + 4, (uint32_t)tree.rsv[i]);
	}
	memcpy(blob + off_struct, tree.structs, tree.structs_len);
	memcpy(blob + off_strings, tree.strings, tree.strings_len);
	const uint32_t header[10] = { FDT_MAGIC, total, off_struct, off_strings, HEADER_BYTES, 17, 16, 0,
				      tree.strings_len, tree.structs_len };
	for (unsigned int i = 0; i < 10; i++)
		put32(blob + 4 * i, header[i]);
	return blob;
}

/* Ends the root and the tree, and lays it out. */
static const void *finish_tree(void)
{
	token(END_NODE);
	token(END);
	return finish();
}

/* Expects fdt_parse() to refuse the tree with a message containing why. */
static void expect_refused(struct ktest *t, const void *b, const char *why)
{
	static struct fdt_info info;

	KT_ASSERT(t, fdt_parse(b, &info) == -1, "the tree was read: %u memory ranges", info.nmemory);
	KT_EXPECT(t, strstr(parse_fail_message(), why) != NULL, "said \"%s\", want \"%s\" in it",
		  parse_fail_message(), why);
}

static void a_well_formed_tree_is_read_whole(struct ktest *t)
{
	static struct fdt_info info;

	start_tree(2, 2, 4, ram_reg);
	tree.rsv[0] = 0x44000000, tree.rsv[1] = 0x2000; /* and an empty one, skipped */
	tree.rsv[2] = 0x47000000, tree.rsv[3] = 0, tree.nrsv = 2;
	begin("psci");
	prop_str("method", "smc");
	token(END_NODE);
	begin("reserved-memory");
	prop_cells("#address-cells", 1, (const uint32_t[]){ 1 });
	prop_cells("#size-cells", 1, (const uint32_t[]){ 1 });
	begin("fw@45000000");
	prop_cells("reg", 2, (const uint32_t[]){ 0x45000000, 0x100000 });
	prop("no-map", NULL, 0);
	token(END_NODE);
	begin("pool");
	prop_cells("size", 2, (const uint32_t[]){ 0, 0x400000 });
	token(END_NODE);
	token(END_NODE);
	KT_ASSERT(t, fdt_parse(finish_tree(), &info) == 0, "%s", parse_fail_message());
	KT_EXPECT(t, info.nmemory == 1 && info.memory[0].base == 0x40000000 && info.memory[0].size == 0x10000000,
		  "%u memory ranges, the first %#llx +%#llx", info.nmemory, (unsigned long long)info.memory[0].base,
		  (unsigned long long)info.memory[0].size);
	KT_ASSERT(t, info.nreserved == 2, "%u reserved ranges", info.nreserved);
	KT_EXPECT(t, info.reserved[0].base == 0x44000000 && info.reserved[0].size == 0x2000 && !info.reserved[0].no_map,
		  "memreserve %#llx +%#llx", (unsigned long long)info.reserved[0].base,
		  (unsigned long long)info.reserved[0].size);
	KT_EXPECT(t, info.reserved[1].base == 0x45000000 && info.reserved[1].size == 0x100000 && info.reserved[1].no_map,
		  "reserved-memory %#llx +%#llx no-map %d", (unsigned long long)info.reserved[1].base,
		  (unsigned long long)info.reserved[1].size, info.reserved[1].no_map);
	KT_EXPECT_EQ(t, info.ndynamic, 1);
	KT_EXPECT_EQ(t, info.uart_base, 0x9000000);
	KT_EXPECT_EQ(t, info.psci, FDT_PSCI_SMC);
	KT_EXPECT_EQ(t, info.totalsize, HEADER_BYTES + 48 + tree.structs_len + tree.strings_len);
}

static void a_bad_magic_is_refused(struct ktest *t)
{
	start_tree(2, 2, 4, ram_reg);
	finish_tree();
	blob[0] ^= 0xff;
	expect_refused(t, blob, "magic");
}

static void a_block_outside_totalsize_is_refused(struct ktest *t)
{
	start_tree(2, 2, 4, ram_reg);
	finish_tree();
	put32(blob + 36, tree.structs_len + 4096); /* size_dt_struct */
	expect_refused(t, blob, "outside the");
}

static void a_property_past_its_block_is_refused(struct ktest *t)
{
	start_tree(2, 2, 4, ram_reg);
	token(PROP);
	token(4096);
	token(0);
	expect_refused(t, finish(), "runs past the structure block");
}

/* A structure block of a size that is not a multiple of 4, its last property's padding past it. */
static void padding_past_the_structure_block_is_refused(struct ktest *t)
{
	start_tree(2, 2, 4, ram_reg);
	prop("x", "12345", 5); /* 5 bytes, padded to 8 */
	finish();
	put32(blob + 36, tree.structs_len - 3); /* size_dt_struct ends after the value's 5 bytes */
	expect_refused(t, blob, "padding runs past the structure block");
}

static void a_name_outside_the_strings_is_refused(struct ktest *t)
{
	start_tree(2, 2, 4, ram_reg);
	token(PROP);
	token(0);
	token(4096);
	expect_refused(t, finish_tree(), "outside the strings block");
}

static void a_tree_without_an_end_is_refused(struct ktest *t)
{
	start_tree(2, 2, 4, ram_reg);
	token(END_NODE);
	expect_refused(t, finish(), "without an END token");
}

static void a_reg_in_three_address_cells_is_refused(struct ktest *t)
{
	start_tree(3, 2, 5, (const uint32_t[]){ 0, 0, 0x40000000, 0, 0x10000000 });
	expect_refused(t, finish_tree(), "want 1 or 2 of each");
}

static void a_reg_of_part_of_an_entry_is_refused(struct ktest *t)
{
	start_tree(2, 2, 3, ram_reg);
	expect_refused(t, finish_tree(), "not entries of 16");
}

static void a_tree_without_memory_is_refused(struct ktest *t)
{
	memset(&tree, 0, sizeof(tree));
	begin("");
	expect_refused(t, finish_tree(), "no /memory node");
}

KTEST_SUITE(fdt_reader,
	    KTEST_CASE(a_well_formed_tree_is_read_whole),
	    KTEST_CASE(a_bad_magic_is_refused),
	    KTEST_CASE(a_block_outside_totalsize_is_refused),
	    KTEST_CASE(a_property_past_its_block_is_refused),
	    KTEST_CASE(padding_past_the_structure_block_is_refused),
	    KTEST_CASE(a_name_outside_the_strings_is_refused),
	    KTEST_CASE(a_tree_without_an_end_is_refused),
	    KTEST_CASE(a_reg_in_three_address_cells_is_refused),
	    KTEST_CASE(a_reg_of_part_of_an_entry_is_refused),
	    KTEST_CASE(a_tree_without_memory_is_refused));
