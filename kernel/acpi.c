/* SPDX-License-Identifier: MIT */
/*
 * acpi_find_cpus(): walks the ACPI tables from the RSDP to the MADT and lists the CPUs it names.
 * Nothing in the tables is trusted before it is checked: the RSDP's checksums and length, each
 * table's signature, length and checksum, the low 4 GiB limit of the boot page tables, and every
 * MADT entry's length. The first problem found is reported as one message naming the table and
 * the offset, and the caller falls back to the boot CPU alone. Layouts from the ACPI
 * specification, section 5.2 (RSDP, system description table header, RSDT, XSDT, MADT).
 */
#include "kernel/acpi.h"

#include "kernel/acpi_bytes.h"
#include "lib/printk.h"
#include "lib/string.h"

#define LOW_4G          (1ULL << 32)
#define RSDP_V1_LEN     20u
#define RSDP_V2_LEN     36u
#define SDT_HEADER_LEN  36u
#define MADT_ENTRIES    44u    /* local APIC address (u32) and flags (u32) follow the header */

#define MADT_LAPIC      0      /* processor local APIC: uid, APIC id (u8), flags */
#define MADT_LAPIC_ADDR 5      /* local APIC address override (u64) */
#define MADT_X2APIC     9      /* processor local x2APIC: x2APIC id (u32), flags, uid */
#define MADT_ENABLED        (1u << 0)
#define MADT_ONLINE_CAPABLE (1u << 1)

struct walk {
	acpi_map_fn map;
	void *ctx;
	struct acpi_cpus *cpus;  /* filled from the MADT when want is "APIC" */
	const char *want;        /* the signature of the table looked for */
	const uint8_t *table;    /* any other table found, whole and checked, and its length */
	uint32_t table_len;
};

static uint8_t checksum(const uint8_t *p, uint32_t len)
{
	uint8_t sum = 0;

	while (len--)
		sum += *p++;
	return sum;
}

/* The len bytes at phys, which must lie in the low 4 GiB and be mapped; NULL after parse_fail(). */
static const uint8_t *map_checked(const struct walk *w, uint64_t phys, uint32_t len, const char *what)
{
	const uint8_t *p;

	if (phys >= LOW_4G || len > LOW_4G - phys) {
		parse_fail("acpi: %s at %#llx (length %#x) leaves the low 4 GiB", what,
		     (unsigned long long)phys, len);
		return NULL;
	}
	p = w->map(w->ctx, phys, len);
	if (!p)
		parse_fail("acpi: %s at %#llx (length %#x) is not mapped", what, (unsigned long long)phys, len);
	return p;
}

/* The table with signature sig (name: MADT for APIC) at phys, whole, zero checksum; NULL after parse_fail(). */
static const uint8_t *map_table(const struct walk *w, uint64_t phys, const char *sig, uint32_t *len)
{
	const char *name = memcmp(sig, "APIC", 4) ? sig : "MADT";
	const uint8_t *h = map_checked(w, phys, SDT_HEADER_LEN, name);
	unsigned long long a = phys;

	if (!h)
		return NULL;
	if (memcmp(h, sig, 4)) {
		parse_fail("acpi: %s at %#llx has signature %02x %02x %02x %02x", name, a, h[0], h[1], h[2], h[3]);
		return NULL;
	}
	*len = acpi_get32(h + 4);
	if (*len < SDT_HEADER_LEN) {
		parse_fail("acpi: %s at %#llx has length %#x, less than its 36-byte header", name, a, *len);
		return NULL;
	}
	if (!(h = map_checked(w, phys, *len, name)))
		return NULL;
	if (checksum(h, *len)) {
		parse_fail("acpi: %s at %#llx (length %#x) has a bad checksum (its bytes sum to %#x, not 0)",
		     name, a, *len, checksum(h, *len));
		return NULL;
	}
	return h;
}

/* Records one usable CPU; past ACPI_MAX_CPUS it is counted, never dropped. */
static void add_cpu(struct acpi_cpus *cpus, uint32_t apic_id, uint32_t flags)
{
	if (!(flags & (MADT_ENABLED | MADT_ONLINE_CAPABLE)))
		return;
	if (cpus->count < ACPI_MAX_CPUS)
		cpus->apic_ids[cpus->count++] = apic_id;
	else
		cpus->more++;
}

/* One MADT entry of len bytes at offset off; types the kernel does not use are skipped. */
static int madt_entry(struct acpi_cpus *cpus, const uint8_t *e, uint32_t off)
{
	static const uint8_t min_len[16] = { [MADT_LAPIC] = 8, [MADT_LAPIC_ADDR] = 12, [MADT_X2APIC] = 16 };
	uint8_t type = e[0], len = e[1];

	if (type < sizeof(min_len) && len < min_len[type])
		return parse_fail("acpi: MADT entry at offset %#x of type %u has length %u, less than %u", off,
			    type, len, min_len[type]);
	if (type == MADT_LAPIC)
		add_cpu(cpus, e[3], acpi_get32(e + 4));
	else if (type == MADT_X2APIC)
		add_cpu(cpus, acpi_get32(e + 4), acpi_get32(e + 8));
	else if (type == MADT_LAPIC_ADDR)
		cpus->lapic_addr = acpi_get64(e + 4);
	return 0;
}

/* Walks the MADT's entries, each of which must have a length and end inside the table. */
static int parse_madt(const struct walk *w, uint64_t phys)
{
	uint32_t len, off;
	const uint8_t *t = map_table(w, phys, "APIC", &len);

	if (!t)
		return -1;
	if (len < MADT_ENTRIES)
		return parse_fail("acpi: MADT at %#llx has length %#x, less than 44", (unsigned long long)phys, len);
	w->cpus->lapic_addr = acpi_get32(t + SDT_HEADER_LEN);
	for (off = MADT_ENTRIES; off < len; off += t[off + 1]) {
		if (len - off < 2)
			return parse_fail("acpi: MADT entry at offset %#x runs past the table end %#x", off, len);
		if (t[off + 1] == 0)
			return parse_fail("acpi: MADT entry at offset %#x has length 0", off);
		if (t[off + 1] > len - off)
			return parse_fail("acpi: MADT entry at offset %#x (length %u) runs past the table end %#x",
				    off, t[off + 1], len);
		if (madt_entry(w->cpus, t + off, off) < 0)
			return -1;
	}
	return 0;
}

/* Maps the table w->want found at phys: the MADT is parsed, any other is kept in w->table. */
static int take_table(struct walk *w, uint64_t phys)
{
	if (!memcmp(w->want, "APIC", 4))
		return parse_madt(w, phys);
	w->table = map_table(w, phys, w->want, &w->table_len);
	return w->table ? 0 : -1;
}

/* Finds the table w->want among the tables the XSDT (entries of 8 bytes) or the RSDT (4 bytes) lists. */
static int parse_root(struct walk *w, uint64_t phys, bool xsdt)
{
	const char *sig = xsdt ? "XSDT" : "RSDT";
	uint32_t esize = xsdt ? 8 : 4, len;
	const uint8_t *t = map_table(w, phys, sig, &len);
	char what[48];

	if (!t)
		return -1;
	if ((len - SDT_HEADER_LEN) % esize)
		return parse_fail("acpi: %s at %#llx has length %#x: a partial entry at its end", sig,
			    (unsigned long long)phys, len);
	for (uint32_t off = SDT_HEADER_LEN; off < len; off += esize) {
		uint64_t entry = xsdt ? acpi_get64(t + off) : acpi_get32(t + off);
		snprintf(what, sizeof(what), "the table listed at %s offset %#x", sig, off);
		const uint8_t *h = map_checked(w, entry, SDT_HEADER_LEN, what);
		if (!h)
			return -1;
		if (!memcmp(h, w->want, 4))
			return take_table(w, entry);
	}
	return parse_fail("acpi: %s at %#llx lists no %s (signature %.4s)", sig, (unsigned long long)phys,
			  memcmp(w->want, "APIC", 4) ? w->want : "MADT", w->want);
}

/* Checks the RSDP copy and follows it to the XSDT (revision 2 and later) or the RSDT. */
static int parse_rsdp(struct walk *w, const uint8_t *r, uint32_t len)
{
	if (!r || len < RSDP_V1_LEN)
		return parse_fail("acpi: RSDP copy of %u bytes is shorter than 20", r ? len : 0);
	if (memcmp(r, "RSD PTR ", 8))
		return parse_fail("acpi: RSDP at offset 0x0 has no \"RSD PTR \" signature");
	if (checksum(r, RSDP_V1_LEN))
		return parse_fail("acpi: RSDP checksum of bytes 0x0-0x13 sums to %#x, not 0", checksum(r, RSDP_V1_LEN));
	if (r[15] < 2)
		return parse_root(w, acpi_get32(r + 16), false);
	if (len < RSDP_V2_LEN)
		return parse_fail("acpi: RSDP revision %u copy of %u bytes is shorter than 36", r[15], len);
	uint32_t full = acpi_get32(r + 20);
	if (full < RSDP_V2_LEN || full > len)
		return parse_fail("acpi: RSDP length %u at offset 0x14 is not between 36 and the %u bytes passed",
			    full, len);
	if (checksum(r, full))
		return parse_fail("acpi: RSDP extended checksum of bytes 0x0-%#x sums to %#x, not 0", full - 1,
			    checksum(r, full));
	if (acpi_get64(r + 24))
		return parse_root(w, acpi_get64(r + 24), true);
	return parse_root(w, acpi_get32(r + 16), false);
}

int acpi_find_cpus(const void *rsdp, uint32_t rsdp_len, acpi_map_fn map, void *ctx,
		   uint32_t boot_apic_id, struct acpi_cpus *cpus, const char **err)
{
	struct walk w = { map, ctx, cpus, "APIC", NULL, 0 };

	memset(cpus, 0, sizeof(*cpus));
	if (parse_rsdp(&w, rsdp, rsdp_len) == 0) {
		cpus->from_madt = true;
		return 0;
	}
	memset(cpus, 0, sizeof(*cpus));
	cpus->count = 1;
	cpus->apic_ids[0] = boot_apic_id;
	cpus->lapic_addr = ACPI_LAPIC_DEFAULT;
	if (err)
		*err = parse_fail_message();
	return -1;
}

const void *acpi_find_table(const void *rsdp, uint32_t rsdp_len, acpi_map_fn map, void *ctx, const char *sig,
			    uint32_t *len, const char **err)
{
	struct walk w = { map, ctx, NULL, sig, NULL, 0 };

	*len = 0;
	if (!memcmp(sig, "APIC", 4)) {
		parse_fail("acpi: acpi_find_table() does not return the MADT; acpi_find_cpus() parses it");
	} else if (parse_rsdp(&w, rsdp, rsdp_len) == 0) {
		*len = w.table_len;
		return w.table;
	}
	if (err)
		*err = parse_fail_message();
	return NULL;
}

int acpi_format_cpus(char *buf, size_t len, const struct acpi_cpus *c)
{
	size_t n = 0;

#define PUT(...) (n = snprintf_append(buf, len, n, __VA_ARGS__))
	if (c->from_madt)
		PUT("ACPI: MADT lists %u CPU%s (APIC ids", c->count + c->more,
		    c->count + c->more == 1 ? "" : "s");
	else
		PUT("ACPI: using the boot CPU alone (APIC id");
	for (uint32_t i = 0; i < c->count; i++)
		PUT(" %u", c->apic_ids[i]);
	if (c->more)
		PUT("; %u more not recorded", c->more);
	PUT("), local APIC at %#llx", (unsigned long long)c->lapic_addr);
#undef PUT
	return (int)n;
}

/* True when apic_id is already among the first n entries of cpus. */
static bool listed_before(const struct acpi_cpus *cpus, uint32_t n, uint32_t apic_id)
{
	for (uint32_t i = 0; i < n; i++)
		if (cpus->apic_ids[i] == apic_id)
			return true;
	return false;
}

/* Why the CPU of entry i may not be started (NULL: it may); the boot CPU's first entry is "". */
static const char *not_startable(const struct acpi_cpus *cpus, uint32_t i, uint32_t boot_apic,
				 bool x2apic)
{
	uint32_t id = cpus->apic_ids[i];

	if (listed_before(cpus, i, id))
		return "it is listed twice, and a second start-up would reset a running CPU";
	if (id == boot_apic)
		return "";
	if (x2apic && id == 0xffffffffu)
		return "it is the x2APIC broadcast id";
	if (!x2apic && id == 0xff)
		return "it is the xAPIC broadcast id";
	if (!x2apic && id > 0xff)
		return "xAPIC mode reaches ids 0 to 254 only";
	return NULL;
}

unsigned int acpi_cpus_to_start(const struct acpi_cpus *cpus, uint32_t boot_apic, bool x2apic,
				uint32_t *ids, unsigned int max, acpi_say_fn *say)
{
	unsigned int n = 0;

	for (uint32_t i = 0; i < cpus->count; i++) {
		const char *why = not_startable(cpus, i, boot_apic, x2apic);

		if (!why && n < max)
			ids[n++] = cpus->apic_ids[i];
		else if (why && *why)
			say("smp: skipping the MADT's CPU with APIC id %u: %s\n", cpus->apic_ids[i], why);
	}
	return n;
}
