/* SPDX-License-Identifier: MIT */
/* Looking addresses and names up in the kernel's symbol table (kernel/ksyms/ksyms.h). */
#include "kernel/ksyms/ksyms.h"

#include "kernel/ksyms/table.h"
#include "lib/string.h"

/*
 * The name of entry i. The names are stored one after another with nothing to index them, which
 * keeps the table small; walking them costs microseconds, and only reports look names up.
 */
static const char *entry_name(unsigned int i)
{
	const char *p = ksym_names;

	while (i--)
		p += strlen(p) + 1;
	return p;
}

/* The index of the last entry that starts at or below off, or -1 when none does. */
static int last_at_or_below(uintptr_t off)
{
	unsigned int lo = 0, hi = ksym_count;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (ksym_entries[mid].offset <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (int)lo - 1;
}

bool ksym_lookup(uintptr_t addr, struct printk_symbol *sym)
{
	uintptr_t off = addr - ksym_text_start;
	int i;

	if (ksym_count == 0 || addr < ksym_text_start || off > UINT32_MAX)
		return false;
	i = last_at_or_below(off);
	if (i < 0 || off - ksym_entries[i].offset >= ksym_entries[i].size)
		return false;
	*sym = (struct printk_symbol){ entry_name((unsigned int)i), off - ksym_entries[i].offset,
				       ksym_entries[i].size };
	return true;
}

uintptr_t ksym_address(const char *name)
{
	const char *p = ksym_names;

	for (unsigned int i = 0; i < ksym_count; i++, p += strlen(p) + 1)
		if (!strcmp(p, name))
			return ksym_text_start + ksym_entries[i].offset;
	return 0;
}

unsigned int ksym_table_size(void)
{
	return ksym_count;
}

void ksyms_init(void)
{
	printk_set_symbolizer(ksym_lookup);
}
