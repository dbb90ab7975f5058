/* SPDX-License-Identifier: MIT */
/* The compact_memory option (kernel/compact_cmdline.h). */
#include "kernel/compact_cmdline.h"

#include "kernel/cmdline.h"
#include "lib/printk.h"
#include "mm/compaction.h"
#include "mm/vmstat_show.h"

CMDLINE_OPTION(compact_memory, "compact_memory", CMDLINE_BARE); /* compact every zone at boot */

void compact_memory_at_boot(const char *cmdline)
{
	if (!cmdline_has(cmdline, "compact_memory"))
		return;
	printk("compact_memory: %lu pages moved\n", compact_memory());
	show_vmstat();
}
