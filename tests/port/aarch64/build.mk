# SPDX-License-Identifier: MIT
# tests/port/aarch64/: mm/ on a second architecture. A small AArch64 kernel (boot code, device
# tree reader, page tables, vmalloc's range, PL011 console) linked with mm/, lib/ and the
# self-test suites of tests/ktest/ listed below (the files the x86 kernel and the host run,
# unchanged), built as an arm64 Image that qemu-system-aarch64 -M virt boots.
# `make test-port-aarch64` boots it three times: on QEMU's own device tree, on that tree with a
# memory reservation and /reserved-memory nodes added, and on one with too many reservations,
# which must be refused (tests/port/aarch64/run.sh).
A64_DIR  := $(B)/aarch64
A64_CC   := aarch64-linux-gnu-gcc
A64_LD   := aarch64-linux-gnu-ld
A64_OBJCOPY := aarch64-linux-gnu-objcopy
A64_DEB_PKGS := gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu qemu-system-arm device-tree-compiler
# -mstrict-align: the device tree is read and the console written before the MMU is on, when all
# memory is Device memory and an unaligned access faults. -mgeneral-regs-only: no FP/SIMD state.
# -mno-outline-atomics: the atomics inline (the outlined ones ask the C library which CPU it is).
A64_CFLAGS = -std=gnu11 -O2 -g $(WARN) -ffreestanding -fno-builtin -nostdinc \
	-isystem $(shell $(A64_CC) -print-file-name=include 2>/dev/null) \
	-mgeneral-regs-only -mstrict-align -mno-outline-atomics -fno-pic -fno-pie -fno-stack-protector \
	-fno-omit-frame-pointer -fno-asynchronous-unwind-tables \
	-I. -DMM_ENV_H='"tests/port/aarch64/mm_env.h"' -DCOMPOUND_FLAGS=$(COMPOUND_FLAGS) -DMM_DEBUG=1 -MMD -MP
# The suites of tests/ktest/ that test mm/ and lib/ and include nothing of the x86 kernel, and the
# runner's own. Left out, as they include a kernel/ header: compaction (its boot option's case
# parses the command line with kernel/compact_cmdline.h), hugetlb_boot (hugepages= with
# kernel/hugetlb_cmdline.h), lock_check (raises an interrupt through kernel/traps.h), and those of
# the x86 kernel itself (acpi, backtrace_walk, boot_memmap, cmdline, multiboot2, screen_console).
A64_SUITES := mm_buddy mm_refcount mm_watermark mm_misuse mm_random mm_memblock mm_memtest mm_fw_map \
	compound_pages compound_split compound_misuse compound_ringbuf_example folio block_owner \
	hugetlb_pool hugetlb_random contig_alloc migrate mobility shrinker page_owner show_mem vmalloc \
	slab slab_misuse slab_random printk printk_symbols string ktest_runner ktest_leak_check \
	kmalloc_calls page_calls memmap_zones memory_add numa_nodes pcp_pageblock
A64_SRCS := $(wildcard tests/port/aarch64/*.c) $(wildcard mm/*.c) lib/printk.c lib/string.c lib/memmove.c lib/memcpy_memset.c \
	tests/ktest/ktest.c tests/ktest/ktest_leak.c tests/ktest/text_capture.c \
	$(A64_SUITES:%=tests/ktest/%.c)
A64_ASM  := tests/port/aarch64/start.S tests/port/aarch64/vectors.S
A64_OBJS := $(A64_SRCS:%.c=$(A64_DIR)/obj/%.o) $(A64_ASM:%.S=$(A64_DIR)/obj/%.o)

.PHONY: deps-aarch64 test-port-aarch64
deps-aarch64:
	$(call install_missing,$(A64_DEB_PKGS),--no-install-recommends)

$(A64_DIR)/obj/%.o: %.c | deps-aarch64
	@mkdir -p $(dir $@)
	@echo "  A64CC   $<"
	$(Q)$(A64_CC) $(A64_CFLAGS) -c $< -o $@

$(A64_DIR)/obj/%.o: %.S | deps-aarch64
	@mkdir -p $(dir $@)
	@echo "  A64AS   $<"
	$(Q)$(A64_CC) -c $< -o $@

$(A64_DIR)/kernel.elf: $(A64_OBJS) tests/port/aarch64/linker.ld
	@echo "  A64LD   $@"
	$(Q)$(A64_LD) -nostdlib -z max-page-size=4096 -z noexecstack -T tests/port/aarch64/linker.ld \
		$(A64_OBJS) $$($(A64_CC) -print-libgcc-file-name) -o $@
$(eval $(call link_list,$(A64_DIR)/kernel.elf,$(A64_OBJS)))

# The arm64 Image QEMU's -kernel takes (the header is the first bytes of start.S).
$(A64_DIR)/Image: $(A64_DIR)/kernel.elf
	$(Q)$(A64_OBJCOPY) -O binary $< $@

test-port-aarch64: $(A64_DIR)/Image | deps-aarch64
	tests/port/aarch64/run.sh $(A64_DIR) $(B)/logs $(TIMEOUT)
TEST_STEPS += test-port-aarch64

-include $(A64_OBJS:.o=.d)
