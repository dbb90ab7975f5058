/* SPDX-License-Identifier: MIT */
/*
 * Made-up ACPI tables for the tests of kernel/acpi.c (see acpi_samples.h), laid out as the ACPI
 * specification describes them: the RSDP, the system description table header, RSDT/XSDT, MADT.
 */
#include "tests/ktest/acpi_samples.h"

#include "lib/string.h"

const void *acpi_img_map(void *ctx, uint64_t phys, uint32_t len)
{
	struct acpi_img *m = ctx;

	if (phys < ACPI_IMG_BASE || phys - ACPI_IMG_BASE > ACPI_IMG_SIZE ||
	    len > ACPI_IMG_SIZE - (phys - ACPI_IMG_BASE))
		return NULL;
	return m->mem + (phys - ACPI_IMG_BASE);
}

uint32_t acpi_img_get32(const struct acpi_img *m, uint32_t off)
{
	uint32_t v;
	memcpy(&v, m->mem + off, 4);
	return v;
}

void acpi_img_put32(struct acpi_img *m, uint32_t off, uint32_t v)
{
	memcpy(m->mem + off, &v, 4);
}

void acpi_img_put64(struct acpi_img *m, uint32_t off, uint64_t v)
{
	memcpy(m->mem + off, &v, 8);
}

static uint8_t sum(const uint8_t *p, uint32_t len)
{
	uint8_t s = 0;

	while (len--)
		s += *p++;
	return s;
}

void acpi_img_fix_table(struct acpi_img *m, uint32_t off)
{
	uint32_t len = acpi_img_get32(m, off + 4);

	m->mem[off + 9] = 0;
	m->mem[off + 9] = (uint8_t)-sum(m->mem + off, len);
}

void acpi_img_fix_rsdp(struct acpi_img *m)
{
	m->mem[8] = 0;
	m->mem[8] = (uint8_t)-sum(m->mem, 20);
	if (m->mem[15] >= 2) {
		m->mem[32] = 0;
		m->mem[32] = (uint8_t)-sum(m->mem, acpi_img_get32(m, 20));
	}
}

/* A table header at off: signature, length, revision 1, OEM id, checksum fixed later. */
static void put_header(struct acpi_img *m, uint32_t off, const char *sig, uint32_t len)
{
	memcpy(m->mem + off, sig, 4);
	acpi_img_put32(m, off + 4, len);
	m->mem[off + 8] = 1;
	memcpy(m->mem + off + 10, "KTEST ", 6);
}

static void put_madt(struct acpi_img *m, const struct acpi_sample_cpu *cpus, uint32_t n)
{
	uint32_t off = ACPI_IMG_MADT + 44;

	for (uint32_t i = 0; i < n && off + 16 <= ACPI_IMG_SIZE; i++) {
		uint8_t *e = m->mem + off;
		e[0] = cpus[i].type;
		if (cpus[i].type == 0) {
			e[1] = 8, e[2] = (uint8_t)i, e[3] = (uint8_t)cpus[i].apic_id;
			memcpy(e + 4, &cpus[i].flags, 4);
		} else {
			e[1] = 16;
			memcpy(e + 4, &cpus[i].apic_id, 4);
			memcpy(e + 8, &cpus[i].flags, 4);
			memcpy(e + 12, &i, 4);
		}
		off += e[1];
	}
	put_header(m, ACPI_IMG_MADT, "APIC", off - ACPI_IMG_MADT);
	acpi_img_put32(m, ACPI_IMG_MADT + 36, 0xfee00000u);
	acpi_img_put32(m, ACPI_IMG_MADT + 40, 1);   /* PC-AT compatible */
	acpi_img_fix_table(m, ACPI_IMG_MADT);
}

void acpi_img_build(struct acpi_img *m, bool xsdt, const struct acpi_sample_cpu *cpus, uint32_t n)
{
	uint32_t esize = xsdt ? 8 : 4;

	memset(m, 0, sizeof(*m));
	memcpy(m->mem, "RSD PTR ", 8);
	memcpy(m->mem + 9, "KTEST ", 6);
	m->mem[15] = xsdt ? 2 : 0;
	acpi_img_put32(m, 16, ACPI_IMG_BASE + ACPI_IMG_ROOT);
	if (xsdt) {
		acpi_img_put32(m, 16, 0);
		acpi_img_put32(m, 20, 36);
		acpi_img_put64(m, 24, ACPI_IMG_BASE + ACPI_IMG_ROOT);
	}
	acpi_img_fix_rsdp(m);

	put_header(m, ACPI_IMG_ROOT, xsdt ? "XSDT" : "RSDT", 36 + 2 * esize);
	memcpy(m->mem + ACPI_IMG_ROOT + 36, &(uint64_t){ ACPI_IMG_BASE + ACPI_IMG_FACP }, esize);
	memcpy(m->mem + ACPI_IMG_ROOT + 36 + esize, &(uint64_t){ ACPI_IMG_BASE + ACPI_IMG_MADT }, esize);
	acpi_img_fix_table(m, ACPI_IMG_ROOT);

	put_header(m, ACPI_IMG_FACP, "FACP", 0x74);
	acpi_img_fix_table(m, ACPI_IMG_FACP);
	put_madt(m, cpus, n);
}

/* Appends the table at image offset off to the root table, whose checksum it fixes. */
static void list_in_root(struct acpi_img *m, uint32_t off)
{
	uint32_t esize = memcmp(m->mem + ACPI_IMG_ROOT, "XSDT", 4) ? 4 : 8;
	uint32_t len = acpi_img_get32(m, ACPI_IMG_ROOT + 4);

	memcpy(m->mem + ACPI_IMG_ROOT + len, &(uint64_t){ ACPI_IMG_BASE + off }, esize);
	acpi_img_put32(m, ACPI_IMG_ROOT + 4, len + esize);
	acpi_img_fix_table(m, ACPI_IMG_ROOT);
}

static void put_srat_memory(uint8_t *e, const struct acpi_sample_mem *r)
{
	e[0] = 1, e[1] = 40;
	memcpy(e + 2, &r->domain, 4);
	memcpy(e + 8, &r->base, 8);
	memcpy(e + 16, &r->len, 8);
	memcpy(e + 28, &r->flags, 4);
}

static void put_srat_cpu(uint8_t *e, const struct acpi_sample_affinity *c)
{
	e[0] = c->type;
	if (c->type == 0) {
		e[1] = 16, e[2] = (uint8_t)c->domain, e[3] = (uint8_t)c->apic_id;
		memcpy(e + 4, &c->flags, 4);
		e[9] = (uint8_t)(c->domain >> 8), e[10] = (uint8_t)(c->domain >> 16), e[11] = (uint8_t)(c->domain >> 24);
	} else {
		e[1] = 24;
		memcpy(e + 4, &c->domain, 4);
		memcpy(e + 8, &c->apic_id, 4);
		memcpy(e + 12, &c->flags, 4);
	}
}

void acpi_img_add_numa(struct acpi_img *m, const struct acpi_sample_mem *mem, uint32_t nmem,
		       const struct acpi_sample_affinity *cpus, uint32_t ncpu, const uint8_t *slit, uint32_t n)
{
	uint32_t off = ACPI_IMG_SRAT + 48;

	memset(m->mem + ACPI_IMG_SRAT, 0, ACPI_IMG_SLIT - ACPI_IMG_SRAT);
	for (uint32_t i = 0; i < nmem && off + 40 <= ACPI_IMG_SLIT; i++, off += 40)
		put_srat_memory(m->mem + off, &mem[i]);
	for (uint32_t i = 0; i < ncpu && off + 24 <= ACPI_IMG_SLIT; i++) {
		put_srat_cpu(m->mem + off, &cpus[i]);
		off += m->mem[off + 1];
	}
	put_header(m, ACPI_IMG_SRAT, "SRAT", off - ACPI_IMG_SRAT);
	acpi_img_put32(m, ACPI_IMG_SRAT + 36, 1);  /* table revision, reserved */
	acpi_img_fix_table(m, ACPI_IMG_SRAT);
	list_in_root(m, ACPI_IMG_SRAT);
	if (!slit || n > ACPI_IMG_SLIT_MAX)
		return;
	put_header(m, ACPI_IMG_SLIT, "SLIT", 44 + n * n);
	acpi_img_put64(m, ACPI_IMG_SLIT + 36, n);
	memcpy(m->mem + ACPI_IMG_SLIT + 44, slit, n * n);
	acpi_img_fix_table(m, ACPI_IMG_SLIT);
	list_in_root(m, ACPI_IMG_SLIT);
}

uint32_t acpi_img_used(const struct acpi_img *m)
{
	static const uint32_t tables[] = { ACPI_IMG_SLIT, ACPI_IMG_SRAT, ACPI_IMG_MADT };

	for (uint32_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		if (m->mem[tables[i]])
			return tables[i] + acpi_img_get32(m, tables[i] + 4);
	return ACPI_IMG_MADT;
}
