/* SPDX-License-Identifier: MIT */
/* The port kernel's page-table descriptors (4 KiB granule; Arm ARM D8.3), for mmu.c and vmalloc.c. */
#ifndef TESTS_PORT_AARCH64_PGTABLE_H
#define TESTS_PORT_AARCH64_PGTABLE_H

#define GiB (1ULL << 30)
#define MiB2 (2ULL << 20)
#define ENTRIES 512 /* per table */

#define DESC_VALID 0x1ULL
#define DESC_BLOCK 0x1ULL /* levels 1 and 2 */
#define DESC_TABLE 0x3ULL /* levels 1 and 2 */
#define DESC_PAGE 0x3ULL  /* level 3 */
#define DESC_ADDR 0x0000fffffffff000ULL
#define ATTR_DEVICE (0ULL << 2) /* MAIR index 0: Device-nGnRnE */
#define ATTR_NORMAL (1ULL << 2) /* MAIR index 1: normal, write-back, read/write-allocate */
#define INNER_SHAREABLE (3ULL << 8)
#define ACCESS_FLAG (1ULL << 10)
#define NEVER_EXECUTE ((1ULL << 53) | (1ULL << 54)) /* PXN, UXN */
/* Normal memory for data: the memmap and vmalloc's pages. */
#define DATA_ATTRS (ATTR_NORMAL | INNER_SHAREABLE | ACCESS_FLAG | NEVER_EXECUTE)

#endif
