# SPDX-License-Identifier: MIT
# tests/fuzz/: libFuzzer targets, built with clang and AddressSanitizer and UBSan.
# `make fuzz` runs every fuzzer for FUZZ_SECONDS (default 60) each; `make fuzz-NAME` runs one; each
# has a 10 s step test-fuzz-NAME in `make test`. Each fuzzer is declared below with two macros.
FUZZ_SECONDS ?= 60
FUZZ_DIR     := $(B)/fuzz
FUZZ_CFLAGS  := -std=gnu11 -O1 -g $(WARN) -I. -DHOST_BUILD $(HOST_MM_ENV) -fsanitize=fuzzer,address,undefined \
                -fno-sanitize-recover=undefined -fno-omit-frame-pointer

# $(call fuzz_binary,NAME,SOURCES,HEADERS[,EXTRA_CFLAGS]): builds $(FUZZ_DIR)/fuzz_NAME, again
# when a source is added or removed (link_list).
define fuzz_binary
$$(FUZZ_DIR)/fuzz_$(1): $(2) $(3) | deps
	@mkdir -p $$(@D)
	@echo "  FUZZCC  $$@"
	$$(Q)$$(HOSTCC) $$(FUZZ_CFLAGS) $(4) $(2) -o $$@
$(call link_list,$(FUZZ_DIR)/fuzz_$(1),$(2))
endef

# $(call fuzz_runs,NAME,SEED_STAMP,SEED_DIRS): fuzz-NAME, its part of `make fuzz`, and test-fuzz-NAME.
define fuzz_runs
.PHONY: fuzz-$(1) test-fuzz-$(1)
fuzz-$(1): $$(FUZZ_DIR)/fuzz_$(1) $(2)
	@tests/fuzz/run-fuzzer.sh $(1) $$(FUZZ_DIR)/fuzz_$(1) $$(FUZZ_SECONDS) $(3)
fuzz:: fuzz-$(1)
test-fuzz-$(1): $$(FUZZ_DIR)/fuzz_$(1) $(2)
	@tests/fuzz/run-fuzzer.sh $(1) $$(FUZZ_DIR)/fuzz_$(1) 10 $(3)
TEST_STEPS += test-fuzz-$(1)
endef

# $(call fuzz_seeds,NAME,SRCS,HEADERS,INPUTS): the seeds of fuzz-NAME, written into
# $(FUZZ_DIR)/seeds/NAME by a small program, tests/fuzz/NAME_seeds.c built with SRCS (and rebuilt
# when HEADERS change), given INPUTS (files) after the directory.
define fuzz_seeds
$$(FUZZ_DIR)/$(1)_seeds: tests/fuzz/$(1)_seeds.c $(2) $(3) | deps
	@mkdir -p $$(@D)
	@echo "  HOSTCC  $$@"
	$$(Q)$$(HOSTCC) $$(filter-out -MMD -MP,$$(HOSTCFLAGS)) tests/fuzz/$(1)_seeds.c $(2) -o $$@

$$(FUZZ_DIR)/seeds/$(1)/.stamp: $$(FUZZ_DIR)/$(1)_seeds $(4)
	@rm -rf $$(@D) && mkdir -p $$(@D)
	$$(Q)$$< $$(@D) $(4) && touch $$@
endef

# ---- multiboot2 parser ---------------------------------------------------------------------
FUZZ_MB2_SRCS := tests/fuzz/fuzz_mb2.c kernel/multiboot2.c kernel/bootinfo_print.c lib/printk.c
FUZZ_MB2_SEEDS := $(FUZZ_DIR)/seeds/mb2

$(eval $(call fuzz_binary,mb2,$(FUZZ_MB2_SRCS),$(wildcard kernel/*.h lib/*.h)))

# The seeds are the sample structures of the parser's self-tests, written by a small program.
$(eval $(call fuzz_seeds,mb2,tests/ktest/mb2_samples.c,$(wildcard tests/ktest/*.h kernel/*.h lib/*.h)))

$(eval $(call fuzz_runs,mb2,$(FUZZ_MB2_SEEDS)/.stamp,$(FUZZ_MB2_SEEDS)))

# ---- the EFI loader's ELF checks -----------------------------------------------------------------
FUZZ_ELF_SRCS := tests/fuzz/fuzz_elf.c boot/efi/elf_load.c
FUZZ_ELF_SEEDS := $(FUZZ_DIR)/seeds/elf

$(eval $(call fuzz_binary,elf,$(FUZZ_ELF_SRCS),$(wildcard boot/efi/*.h lib/*.h)))

# The seeds: the start of the real kernel, its headers with the segments packed small, and
# hand-made headers, written by a small program (nothing binary is kept in the tree).
$(eval $(call fuzz_seeds,elf,,boot/efi/elf_load.h,$(KERNEL)))

$(eval $(call fuzz_runs,elf,$(FUZZ_ELF_SEEDS)/.stamp,$(FUZZ_ELF_SEEDS)))

# ---- the EFI loader's multiboot2 builder, read back by the kernel's parser ----------------------
FUZZ_MBI_SRCS := tests/fuzz/fuzz_mbi.c boot/efi/mbi.c kernel/multiboot2.c lib/printk.c
FUZZ_MBI_SEEDS := $(FUZZ_DIR)/seeds/mbi
FUZZ_MBI_FIXTURES := tests/fixtures/memmaps/qemu-q35-ovmf-256m.txt tests/fixtures/memmaps/efi-format-example.txt

$(eval $(call fuzz_binary,mbi,$(FUZZ_MBI_SRCS),$(wildcard boot/efi/*.h kernel/*.h lib/*.h)))

# The seeds: loader inputs made by a small program, and the EFI memory maps of the fixtures.
$(eval $(call fuzz_seeds,mbi,,kernel/bootinfo.h,$(FUZZ_MBI_FIXTURES)))

$(eval $(call fuzz_runs,mbi,$(FUZZ_MBI_SEEDS)/.stamp,$(FUZZ_MBI_SEEDS)))

# ---- kernel command line parser ---------------------------------------------------------------
# kernel/cmdline.c against the reference model in fuzz_cmdline.c (which stands in for mm/hugetlb.c's
# hugetlb_request()); the seeds are command lines in tests/fuzz/seeds/cmdline/.
FUZZ_CMDLINE_SRCS := tests/fuzz/fuzz_cmdline.c kernel/cmdline.c kernel/hugetlb_cmdline.c \
	tests/host/kernel_options.c lib/printk.c
FUZZ_CMDLINE_SEEDS := tests/fuzz/seeds/cmdline

$(eval $(call fuzz_binary,cmdline,$(FUZZ_CMDLINE_SRCS),$(wildcard kernel/*.h lib/*.h mm/*.h)))

$(eval $(call fuzz_runs,cmdline,,$(FUZZ_CMDLINE_SEEDS)))

# ---- mm/: a fuzzed memory map through the boot path, then fuzzed calls (host harness: tests/mm/) --
# Seeded with the fixture maps, and with inputs whose operations reach the calls a map alone takes
# long to find (tests/fuzz/seeds/mm/: a map, a NUL, then operations that migrate blocks or krealloc
# objects).
FUZZ_MM_SRCS := tests/fuzz/fuzz_mm.c $(wildcard mm/*.c) lib/printk.c tests/mm/host_arch.c tests/mm/mm_check.c \
                tests/mm/map_text.c kernel/boot_memmap.c
$(eval $(call fuzz_binary,mm,$(FUZZ_MM_SRCS),$(wildcard mm/*.h tests/mm/*.h tests/ktest/mm_shape.h tests/fuzz/*.h lib/*.h kernel/*.h),\
	-DCOMPOUND_FLAGS=$(COMPOUND_FLAGS) -DMM_DEBUG=1))
$(eval $(call fuzz_runs,mm,,tests/fixtures/memmaps tests/fuzz/seeds/mm))

# ---- the map-conversion fuzzer: kernel/boot_memmap.c and the sanitizer on arbitrary raw maps ----
FUZZ_MEMMAP_SRCS := tests/fuzz/fuzz_memmap.c kernel/boot_memmap.c mm/fw_map.c lib/printk.c tests/fuzz/fuzz_stubs.c
$(eval $(call fuzz_binary,memmap,$(FUZZ_MEMMAP_SRCS),$(wildcard mm/*.h kernel/*.h lib/*.h tests/fuzz/*.h)))
$(eval $(call fuzz_runs,memmap,,))

# ---- the ACPI CPU list and NUMA layout: kernel/acpi.c and kernel/numa_acpi.c on made-up tables, seeded with the self-tests' samples ----
FUZZ_ACPI_SRCS := tests/fuzz/fuzz_acpi.c kernel/acpi.c kernel/numa_acpi.c tests/ktest/acpi_samples.c lib/printk.c
FUZZ_ACPI_SEEDS := $(FUZZ_DIR)/seeds/acpi

$(eval $(call fuzz_binary,acpi,$(FUZZ_ACPI_SRCS),$(wildcard kernel/*.h lib/*.h tests/ktest/acpi_samples.h tests/fuzz/*.h)))

$(eval $(call fuzz_seeds,acpi,tests/ktest/acpi_samples.c,$(wildcard tests/ktest/*.h kernel/*.h lib/*.h)))

$(eval $(call fuzz_runs,acpi,$(FUZZ_ACPI_SEEDS)/.stamp,$(FUZZ_ACPI_SEEDS)))
