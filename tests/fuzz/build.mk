# tests/fuzz/: libFuzzer targets, built with clang and AddressSanitizer and UBSan.
# `make fuzz` runs every fuzzer for FUZZ_SECONDS (default 60) each. `fuzz` is a double-colon rule:
# another fragment adds its fuzzer with its own `fuzz:: ...` rule and recipe, e.g.
#     fuzz:: $(FUZZ_DIR)/fuzz_mm
#     	@tests/fuzz/run-fuzzer.sh mm $(FUZZ_DIR)/fuzz_mm $(FUZZ_SECONDS)
FUZZ_SECONDS ?= 60
FUZZ_DIR     := $(B)/fuzz
FUZZ_CFLAGS  := -std=gnu11 -O1 -g $(WARN) -I. -DHOST_BUILD -fsanitize=fuzzer,address,undefined \
                -fno-sanitize-recover=undefined -fno-omit-frame-pointer

# ---- multiboot2 parser ---------------------------------------------------------------------
FUZZ_MB2_SRCS := tests/fuzz/fuzz_mb2.c kernel/multiboot2.c kernel/bootinfo_print.c lib/printk.c
FUZZ_MB2_SEEDS := $(FUZZ_DIR)/seeds/mb2

$(FUZZ_DIR)/fuzz_mb2: $(FUZZ_MB2_SRCS) $(wildcard kernel/*.h lib/*.h) | deps
	@mkdir -p $(@D)
	@echo "  FUZZCC  $@"
	$(Q)$(HOSTCC) $(FUZZ_CFLAGS) $(FUZZ_MB2_SRCS) -o $@

# The seeds are the sample structures of the parser's self-tests, written by a small program.
$(FUZZ_DIR)/mb2_seeds: tests/fuzz/mb2_seeds.c tests/ktest/mb2_samples.c $(wildcard tests/ktest/*.h kernel/*.h lib/*.h) | deps
	@mkdir -p $(@D)
	@echo "  HOSTCC  $@"
	$(Q)$(HOSTCC) $(filter-out -MMD -MP,$(HOSTCFLAGS)) tests/fuzz/mb2_seeds.c tests/ktest/mb2_samples.c -o $@

$(FUZZ_MB2_SEEDS)/.stamp: $(FUZZ_DIR)/mb2_seeds
	@rm -rf $(@D) && mkdir -p $(@D)
	$(Q)$< $(@D) && touch $@

.PHONY: fuzz-mb2 test-fuzz-mb2
fuzz-mb2: $(FUZZ_DIR)/fuzz_mb2 $(FUZZ_MB2_SEEDS)/.stamp
	@tests/fuzz/run-fuzzer.sh mb2 $(FUZZ_DIR)/fuzz_mb2 $(FUZZ_SECONDS) $(FUZZ_MB2_SEEDS)

fuzz:: $(FUZZ_DIR)/fuzz_mb2 $(FUZZ_MB2_SEEDS)/.stamp
	@tests/fuzz/run-fuzzer.sh mb2 $(FUZZ_DIR)/fuzz_mb2 $(FUZZ_SECONDS) $(FUZZ_MB2_SEEDS)

# In `make test`: a short run.
test-fuzz-mb2: $(FUZZ_DIR)/fuzz_mb2 $(FUZZ_MB2_SEEDS)/.stamp
	@tests/fuzz/run-fuzzer.sh mb2 $(FUZZ_DIR)/fuzz_mb2 10 $(FUZZ_MB2_SEEDS)
TEST_STEPS += test-fuzz-mb2

# ---- the EFI loader's ELF checks -----------------------------------------------------------------
FUZZ_ELF_SRCS := tests/fuzz/fuzz_elf.c boot/efi/elf_load.c
FUZZ_ELF_SEEDS := $(FUZZ_DIR)/seeds/elf

$(FUZZ_DIR)/fuzz_elf: $(FUZZ_ELF_SRCS) $(wildcard boot/efi/*.h lib/*.h) | deps
	@mkdir -p $(@D)
	@echo "  FUZZCC  $@"
	$(Q)$(HOSTCC) $(FUZZ_CFLAGS) $(FUZZ_ELF_SRCS) -o $@

# The seeds: the start of the real kernel, its headers with the segments packed small, and
# hand-made headers, written by a small program (nothing binary is kept in the tree).
$(FUZZ_DIR)/elf_seeds: tests/fuzz/elf_seeds.c boot/efi/elf_load.h | deps
	@mkdir -p $(@D)
	@echo "  HOSTCC  $@"
	$(Q)$(HOSTCC) $(filter-out -MMD -MP,$(HOSTCFLAGS)) tests/fuzz/elf_seeds.c -o $@

$(FUZZ_ELF_SEEDS)/.stamp: $(FUZZ_DIR)/elf_seeds $(KERNEL)
	@rm -rf $(@D) && mkdir -p $(@D)
	$(Q)$< $(@D) $(KERNEL) && touch $@

.PHONY: fuzz-elf test-fuzz-elf
fuzz-elf: $(FUZZ_DIR)/fuzz_elf $(FUZZ_ELF_SEEDS)/.stamp
	@tests/fuzz/run-fuzzer.sh elf $(FUZZ_DIR)/fuzz_elf $(FUZZ_SECONDS) $(FUZZ_ELF_SEEDS)

fuzz:: $(FUZZ_DIR)/fuzz_elf $(FUZZ_ELF_SEEDS)/.stamp
	@tests/fuzz/run-fuzzer.sh elf $(FUZZ_DIR)/fuzz_elf $(FUZZ_SECONDS) $(FUZZ_ELF_SEEDS)

# In `make test`: a short run.
test-fuzz-elf: $(FUZZ_DIR)/fuzz_elf $(FUZZ_ELF_SEEDS)/.stamp
	@tests/fuzz/run-fuzzer.sh elf $(FUZZ_DIR)/fuzz_elf 10 $(FUZZ_ELF_SEEDS)
TEST_STEPS += test-fuzz-elf

# ---- the EFI loader's multiboot2 builder, read back by the kernel's parser ----------------------
FUZZ_MBI_SRCS := tests/fuzz/fuzz_mbi.c boot/efi/mbi.c kernel/multiboot2.c lib/printk.c
FUZZ_MBI_SEEDS := $(FUZZ_DIR)/seeds/mbi
FUZZ_MBI_FIXTURES := tests/fixtures/memmaps/qemu-q35-ovmf-256m.txt tests/fixtures/memmaps/efi-format-example.txt

$(FUZZ_DIR)/fuzz_mbi: $(FUZZ_MBI_SRCS) $(wildcard boot/efi/*.h kernel/*.h lib/*.h) | deps
	@mkdir -p $(@D)
	@echo "  FUZZCC  $@"
	$(Q)$(HOSTCC) $(FUZZ_CFLAGS) $(FUZZ_MBI_SRCS) -o $@

# The seeds: loader inputs made by a small program, and the EFI memory maps of the fixtures.
$(FUZZ_DIR)/mbi_seeds: tests/fuzz/mbi_seeds.c kernel/bootinfo.h | deps
	@mkdir -p $(@D)
	@echo "  HOSTCC  $@"
	$(Q)$(HOSTCC) $(filter-out -MMD -MP,$(HOSTCFLAGS)) tests/fuzz/mbi_seeds.c -o $@

$(FUZZ_MBI_SEEDS)/.stamp: $(FUZZ_DIR)/mbi_seeds $(FUZZ_MBI_FIXTURES)
	@rm -rf $(@D) && mkdir -p $(@D)
	$(Q)$< $(@D) $(FUZZ_MBI_FIXTURES) && touch $@

.PHONY: fuzz-mbi test-fuzz-mbi
fuzz-mbi: $(FUZZ_DIR)/fuzz_mbi $(FUZZ_MBI_SEEDS)/.stamp
	@tests/fuzz/run-fuzzer.sh mbi $(FUZZ_DIR)/fuzz_mbi $(FUZZ_SECONDS) $(FUZZ_MBI_SEEDS)

fuzz:: $(FUZZ_DIR)/fuzz_mbi $(FUZZ_MBI_SEEDS)/.stamp
	@tests/fuzz/run-fuzzer.sh mbi $(FUZZ_DIR)/fuzz_mbi $(FUZZ_SECONDS) $(FUZZ_MBI_SEEDS)

# In `make test`: a short run.
test-fuzz-mbi: $(FUZZ_DIR)/fuzz_mbi $(FUZZ_MBI_SEEDS)/.stamp
	@tests/fuzz/run-fuzzer.sh mbi $(FUZZ_DIR)/fuzz_mbi 10 $(FUZZ_MBI_SEEDS)
TEST_STEPS += test-fuzz-mbi

# ---- kernel command line parser ---------------------------------------------------------------
# kernel/cmdline.c against the reference model in fuzz_cmdline.c (which stands in for mm/hugetlb.c's
# hugetlb_request()); the seeds are command lines in tests/fuzz/seeds/cmdline/.
FUZZ_CMDLINE_SRCS := tests/fuzz/fuzz_cmdline.c kernel/cmdline.c lib/printk.c
FUZZ_CMDLINE_SEEDS := tests/fuzz/seeds/cmdline

$(FUZZ_DIR)/fuzz_cmdline: $(FUZZ_CMDLINE_SRCS) $(wildcard kernel/*.h lib/*.h mm/*.h) | deps
	@mkdir -p $(@D)
	@echo "  FUZZCC  $@"
	$(Q)$(HOSTCC) $(FUZZ_CFLAGS) $(FUZZ_CMDLINE_SRCS) -o $@

.PHONY: fuzz-cmdline test-fuzz-cmdline
fuzz-cmdline: $(FUZZ_DIR)/fuzz_cmdline
	@tests/fuzz/run-fuzzer.sh cmdline $(FUZZ_DIR)/fuzz_cmdline $(FUZZ_SECONDS) $(FUZZ_CMDLINE_SEEDS)

fuzz:: $(FUZZ_DIR)/fuzz_cmdline
	@tests/fuzz/run-fuzzer.sh cmdline $(FUZZ_DIR)/fuzz_cmdline $(FUZZ_SECONDS) $(FUZZ_CMDLINE_SEEDS)

# In `make test`: a short run.
test-fuzz-cmdline: $(FUZZ_DIR)/fuzz_cmdline
	@tests/fuzz/run-fuzzer.sh cmdline $(FUZZ_DIR)/fuzz_cmdline 10 $(FUZZ_CMDLINE_SEEDS)
TEST_STEPS += test-fuzz-cmdline
