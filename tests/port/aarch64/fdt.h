/* SPDX-License-Identifier: MIT */
/*
 * A reader of the flattened device tree (the DTB QEMU passes in x0) for what mm/ needs: the RAM
 * of the /memory nodes, the ranges kept from it (the memory reservation block, the children of
 * /reserved-memory), the PL011 UART's address and how PSCI is called. Everything is checked
 * against the blob's own sizes: a malformed tree is refused with a message, never half read.
 */
#ifndef TESTS_PORT_AARCH64_FDT_H
#define TESTS_PORT_AARCH64_FDT_H

#include <stdbool.h>
#include <stdint.h>

#define FDT_MAGIC 0xd00dfeedu
#define FDT_MAX_RANGES 32        /* per list: more is refused, not cut */
#define FDT_MAX_BYTES (1u << 20) /* a larger totalsize is taken for garbage */

struct fdt_range {
	uint64_t base, size;
	const char *what; /* "memreserve", "reserved-memory" or "reserved-memory no-map" */
	bool no_map;      /* /reserved-memory child with no-map: not RAM to the kernel at all */
};

enum fdt_psci { FDT_PSCI_NONE, FDT_PSCI_HVC, FDT_PSCI_SMC };

struct fdt_info {
	uint32_t totalsize; /* the blob's size from its header: reserve [dtb, dtb + totalsize) */
	struct fdt_range memory[FDT_MAX_RANGES];
	unsigned int nmemory;
	struct fdt_range reserved[FDT_MAX_RANGES];
	unsigned int nreserved;
	unsigned int ndynamic;  /* /reserved-memory children with a size but no reg: nobody places them */
	uint64_t uart_base;     /* first "arm,pl011" node's first reg address; 0: none */
	enum fdt_psci psci;     /* the /psci node's method */
};

/*
 * Reads the tree at blob into *info. Returns 0, or -1 with the reason in parse_fail_message()
 * (lib/printk.h): bad magic or version, a block outside totalsize, a token, name or property
 * that runs past its block, a reg read (memory, reservation, UART) in cells other than 1 or 2, a reg whose length is not a whole
 * number of entries, more than FDT_MAX_RANGES ranges in a list, no /memory range at all.
 */
int fdt_parse(const void *blob, struct fdt_info *info);

#endif
