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
