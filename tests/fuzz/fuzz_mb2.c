/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the multiboot2 parser: the input is the information structure, and the
 * parser may read exactly its bytes (AddressSanitizer catches a read past them). A structure it
 * accepts is printed as the boot report would print it (to nowhere), and what it returned is
 * checked to point inside the input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/bootinfo.h"
#include "lib/printk.h"

static int inside(const uint8_t *data, size_t size, const void *p, size_t len)
{
	const uint8_t *q = p;
	return q >= data && len <= size && (size_t)(q - data) <= size - len;
}

/* Everything a successful parse hands out lies inside the input. */
static void check_result(const uint8_t *data, size_t size, const struct boot_info *bi)
{
	if (bi->mbi_size > size || bi->nmodules > BOOT_MAX_MODULES)
		abort();
	if (*bi->cmdline && !inside(data, size, bi->cmdline, strlen(bi->cmdline) + 1))
		abort();
	if (*bi->loader_name && !inside(data, size, bi->loader_name, strlen(bi->loader_name) + 1))
		abort();
	if (bi->mmap && !inside(data, size, bi->mmap, (size_t)bi->mmap_count * bi->mmap_entry_size))
		abort();
	if (bi->efi_mmap &&
	    !inside(data, size, bi->efi_mmap, (size_t)bi->efi_mmap_count * bi->efi_desc_size))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct boot_info bi;
	const char *err = NULL;

	if (mb2_parse(data, size, &bi, &err) < 0) {
		if (!err || !*err || strlen(err) >= 160)
			abort(); /* every failure names what is wrong */
		return 0;
	}
	check_result(data, size, &bi);
	bootinfo_print(&bi);
	return 0;
}
