# SPDX-License-Identifier: MIT
# Top-level build: the kernel, its boot images, the host tests, and the QEMU test matrix.
# Each directory adds its sources in its own build.mk; this file holds the rules.

.DEFAULT_GOAL := all
.SUFFIXES:
.DELETE_ON_ERROR:

B        := build
# Whether CMDLINE was given (command line or environment), before it gets its default:
# make flash compares a given one with the one the image was built with.
CMDLINE_GIVEN := $(filter-out undefined,$(origin CMDLINE))
FIRMWARE ?= bios
MEDIUM   ?= cdrom
MEM      ?= 256M
MACHINE  ?= pc
SMP      ?= 2
NUMA     ?=
NUMA_DIST ?=
ACCEL    ?= tcg
CMDLINE  ?=
TIMEOUT  ?= 300
COMPOUND_FLAGS ?= 64
RELEASE  ?=

# RELEASE=1 (or `make kernel`) builds the release kernel: no self-tests, no benchmark, no
# MM_DEBUG, in build/release/ with its own objects, so it never mixes with the test kernel's.
# RELEASE=bench is the release kernel plus the benchmark (build/bench-kernel/): what `make bench`
# measures, so that its figures are those of the kernel users ship, without MM_DEBUG's checks.
ifeq ($(RELEASE),1)
KDIR     := $(B)/release
MM_DEBUG :=
else ifeq ($(RELEASE),bench)
KDIR     := $(B)/bench-kernel
MM_DEBUG :=
else ifeq ($(RELEASE),)
KDIR     := $(B)
MM_DEBUG := -DMM_DEBUG=1
else
$(error RELEASE=$(RELEASE): say RELEASE=1 for the release kernel, RELEASE=bench for it with the benchmark, or nothing for the test kernel)
endif
IMG_DIR  ?= $(KDIR)

# The kernel command line reaches the recipes as its exact bytes, in the environment variable
# KERNEL_CMDLINE: make expands nothing in it ($ stays $), and recipes only use it as
# "$$KERNEL_CMDLINE", so no shell parses it either. (make itself drops the leading spaces of
# CMDLINE=... on its command line; CMDLINE given in the environment keeps them.)
override CMDLINE := $(value CMDLINE)
export KERNEL_CMDLINE := $(CMDLINE)

# ---- toolchains -----------------------------------------------------------------------------
CC      := gcc
LD      := ld
NASM    := nasm
HOSTCC  := clang

WARN    := -Wall -Wextra -Werror=implicit-function-declaration
# Frame pointers for backtraces (kernel/backtrace.c), but none in a leaf function (one that makes
# no call but tail calls): the fast paths that read __builtin_return_address (kmalloc(), kfree())
# then read it from the stack pointer instead of building a frame, three instructions less each.
# A trace from a fault inside a leaf names the leaf (the trap's RIP), then its caller's callers.
KCFLAGS := -std=gnu11 -O2 -g $(WARN) -ffreestanding -fno-builtin -nostdinc -isystem $(shell $(CC) -print-file-name=include) \
           -mno-red-zone -mcmodel=kernel -mno-mmx -mno-sse -mno-sse2 -mgeneral-regs-only \
           -fno-pic -fno-pie -fno-stack-protector -fno-omit-frame-pointer -momit-leaf-frame-pointer \
           -fno-asynchronous-unwind-tables -I. -DMM_ENV_H='"kernel/mm_env.h"' -DCOMPOUND_FLAGS=$(COMPOUND_FLAGS) $(MM_DEBUG) -MMD -MP
KLDFLAGS := -n -nostdlib -z max-page-size=0x1000 -z noexecstack -T linker.ld
# The host harness's side of mm/arch.h's concurrency interface.
HOST_MM_ENV := -DMM_ENV_H='"tests/mm/mm_env.h"'
HOSTCFLAGS := -std=gnu11 -O1 -g $(WARN) -I. -DHOST_BUILD $(HOST_MM_ENV) -DCOMPOUND_FLAGS=$(COMPOUND_FLAGS) -DMM_DEBUG=1 \
              -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -MMD -MP

# Names the fragments below may use in their rules.
KOBJ   := $(KDIR)/kernel-$(COMPOUND_FLAGS)
KERNEL := $(KDIR)/kernel.elf
HOST_OBJ   := $(B)/host/obj-$(COMPOUND_FLAGS)
HOST_KTEST := $(B)/host/ktest-$(COMPOUND_FLAGS)

# ---- what each link takes ---------------------------------------------------------------------
# A program depends on its objects, but that alone misses a source removed from a wildcard list:
# every object left is older than the program, so the old program, the removed file's code in
# it, would stay. So each program also depends on PROGRAM.link, the list of the files it is
# linked from, one a line, rewritten only when the list changes: an added or removed source
# relinks, and nothing relinks when nothing changed. A recipe links $(filter-out %.link,$^).
#   $(eval $(call link_list,PROGRAM,FILES))
define link_list
$(1): $(1).link
$(1).link: FORCE
	@mkdir -p $$(@D)
	$$(Q)printf '%s\n' $(sort $(2)) >$$@.tmp
	$$(Q)if cmp -s $$@.tmp $$@; then rm -f $$@.tmp; else mv -f $$@.tmp $$@; fi
endef

# ---- sources (each directory appends) ---------------------------------------------------------
# KERNEL_TEST_SRCS: the self-test runner and the suites, in the test kernel only;
# KERNEL_BENCH_SRCS: the benchmark, in the test kernel and the bench kernel.
KERNEL_ASM  :=
KERNEL_SRCS :=
KERNEL_TEST_SRCS :=
KERNEL_BENCH_SRCS :=
HOST_SRCS   :=
# Every fragment is required: a missing one is an error, never a silently smaller build.
include boot/build.mk kernel/build.mk lib/build.mk mm/build.mk tests/build.mk

ifneq ($(RELEASE),)
ifneq ($(filter tests/% %_test.c,$(KERNEL_SRCS)),)
$(error the release kernel would get test code: $(filter tests/% %_test.c,$(KERNEL_SRCS)); add it to KERNEL_TEST_SRCS)
endif
endif
ifeq ($(RELEASE),bench)
KERNEL_SRCS += $(KERNEL_BENCH_SRCS)
else ifeq ($(RELEASE),)
KERNEL_SRCS += $(KERNEL_TEST_SRCS) $(KERNEL_BENCH_SRCS)
endif
KERNEL_OBJS := $(KERNEL_ASM:%.asm=$(KOBJ)/%.o) $(KERNEL_SRCS:%.c=$(KOBJ)/%.o)

all: $(KERNEL) $(IMG_DIR)/os.iso

# make kernel: the release kernel and its ISO, build/release/kernel.elf and build/release/os.iso.
ifeq ($(RELEASE),1)
kernel: $(KERNEL) $(IMG_DIR)/os.iso
else
kernel:
	@$(MAKE) --no-print-directory RELEASE=1 kernel
endif

# make size: text, data and bss of the mm/ objects and of the whole kernel, in the test kernel's
# build (MM_DEBUG) and in the release build (tests/release/size.sh prints them).
size:
	@$(MAKE) --no-print-directory RELEASE= $(B)/kernel.elf
	@$(MAKE) --no-print-directory RELEASE=1 $(B)/release/kernel.elf
	@tests/release/size.sh $(B)/kernel-$(COMPOUND_FLAGS) $(B)/kernel.elf \
		$(B)/release/kernel-$(COMPOUND_FLAGS) $(B)/release/kernel.elf

Q := @
$(KOBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(KCFLAGS) -c $< -o $@

$(KOBJ)/%.o: %.asm | deps
	@mkdir -p $(dir $@)
	@echo "  NASM    $<"
	$(Q)$(NASM) -f elf64 -g -F dwarf -w+all -MD $(@:.o=.d) $< -o $@

# Two links (kernel/ksyms/): the first with an empty symbol table, the second with the table of
# the first one's code symbols. The table is read-only data after all the code, so no code moves
# between the two; mktable.sh --check stops the build if some ever does.
$(KDIR)/kernel-$(COMPOUND_FLAGS).nosyms.elf: $(KERNEL_OBJS) $(KSYMS_EMPTY_OBJ) linker.ld
	@echo "  LD      $@"
	$(Q)$(LD) $(KLDFLAGS) $(KERNEL_OBJS) $(KSYMS_EMPTY_OBJ) -o $@

$(KDIR)/kernel-$(COMPOUND_FLAGS).elf: $(KERNEL_OBJS) $(KSYMS_TABLE_OBJ) linker.ld
	@echo "  LD      $@"
	$(Q)$(LD) $(KLDFLAGS) $(KERNEL_OBJS) $(KSYMS_TABLE_OBJ) -o $@
	$(Q)kernel/ksyms/mktable.sh --check $@ $(KSYMS_TABLE_C)

$(eval $(call link_list,$(KDIR)/kernel-$(COMPOUND_FLAGS).nosyms.elf,$(KERNEL_OBJS)))
$(eval $(call link_list,$(KDIR)/kernel-$(COMPOUND_FLAGS).elf,$(KERNEL_OBJS)))

$(KERNEL): $(KDIR)/kernel-$(COMPOUND_FLAGS).elf
	cp $< $@

-include $(KERNEL_OBJS:.o=.d)

# ---- boot image -----------------------------------------------------------------------------
# One ISO for everything GRUB boots: grub-mkrescue makes it a hybrid that boots from CD-ROM or USB
# stick, on BIOS (i386-pc) and on UEFI (x86_64-efi). The command line is baked into grub.cfg.
# The images go to IMG_DIR (build/; the command line test builds its own elsewhere);
# cmdline.txt changes when the command line does, and the images are rebuilt then.
$(IMG_DIR)/cmdline.txt: boot/mkcmdline.sh FORCE
	@mkdir -p $(@D)
	$(Q)boot/mkcmdline.sh "$$KERNEL_CMDLINE" $@

$(IMG_DIR)/os.iso: $(KERNEL) $(IMG_DIR)/cmdline.txt boot/grub.cfg.in boot/mkgrubcfg.sh boot/mkiso.sh | deps
	@echo "  ISO     $@"
	$(Q)boot/mkiso.sh $(KERNEL) "$$KERNEL_CMDLINE" $@

FORCE:

# ---- host test binary -----------------------------------------------------------------------
# Every suite in HOST_SRCS runs on the host under AddressSanitizer and UBSan.
$(HOST_OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $<"
	$(Q)$(HOSTCC) $(HOSTCFLAGS) -c $< -o $@

$(HOST_KTEST): $(sort $(HOST_SRCS:%.c=$(HOST_OBJ)/%.o))
	$(HOSTCC) $(HOSTCFLAGS) $(filter-out %.link,$^) -o $@
$(eval $(call link_list,$(HOST_KTEST),$(HOST_SRCS:%.c=$(HOST_OBJ)/%.o)))

host-test: $(HOST_KTEST)
	$(HOST_KTEST) $(FILTER)

-include $(HOST_SRCS:%.c=$(HOST_OBJ)/%.d)

# ---- Debian packages ------------------------------------------------------------------------
# Each target that needs tools depends on deps; it installs only what is missing and says what.
# install_missing PKGS[,APT-OPTIONS]: the recipe line that does it, for deps and for steps with
# needs of their own.
DEB_PKGS := qemu-system-x86 nasm grub-pc-bin grub-efi-amd64-bin grub-common xorriso mtools gnu-efi ovmf \
            clang libclang-rt-dev gcc make gdb console-setup-linux dosfstools pkgconf
install_missing = @missing=""; for p in $(1); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "deps: installing Debian packages:$$missing"; \
		SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(2) $$missing >/dev/null || \
			{ echo "deps: apt-get install failed for:$$missing"; exit 1; }; \
	fi
deps:
	$(call install_missing,$(DEB_PKGS))

# ---- running and debugging ----------------------------------------------------------------
# make run and make debug refuse a MEM= that QEMU would misread (no unit) or that cannot boot,
# before building anything (tests/qemu/check-mem.sh says what is accepted).
ifneq ($(filter run debug,$(MAKECMDGOALS)),)
MEM_PROBLEM := $(shell tests/qemu/check-mem.sh '$(FIRMWARE)' '$(MEM)')
ifneq ($(MEM_PROBLEM),)
$(error $(MEM_PROBLEM))
endif
endif

# PRINT=1: make run and make debug print the QEMU command (and gdb's) instead of running them.
QEMU_MACHINE_ARGS = --firmware $(FIRMWARE) --medium $(MEDIUM) --mem $(MEM) --machine $(MACHINE) \
	--smp $(SMP) --accel $(ACCEL) --image $(IMG_DIR)/os.iso $(if $(PRINT),--print) \
	$(if $(NUMA),--numa '$(NUMA)') $(if $(NUMA_DIST),--numa-dist '$(NUMA_DIST)')

# make run: boot in QEMU with the serial console on this terminal; exits with the kernel's verdict.
run: $(IMG_DIR)/os.iso
	tests/qemu/run.sh --interactive $(QEMU_MACHINE_ARGS) --timeout $(TIMEOUT) --log $(B)/logs/run.log

# The machine make run boots with its defaults: the sample of its output in the report
# (make report) comes from it, and test-readme-sample boots it again to compare.
SAMPLE_MACHINE := --firmware bios --medium cdrom --mem 256M --machine pc --smp 2 --accel $(ACCEL)

# make debug: the machine make run boots, halted with a gdb stub on :1234 (serial in
# build/logs/debug.log), and gdb attached with the kernel's symbols and a breakpoint on kmain.
# Quit gdb to stop QEMU.
debug: $(IMG_DIR)/os.iso
	@mkdir -p $(B)/logs
	@printf '%s\n' 'file $(KERNEL)' 'set architecture i386:x86-64' 'target remote localhost:1234' \
		'hbreak kmain' 'echo Stopped before the kernel ran. "continue" runs to kmain.\n' > $(B)/gdbinit
	tests/qemu/run.sh --gdb $(B)/gdbinit $(QEMU_MACHINE_ARGS) --log $(B)/logs/debug.log

# ---- make help -------------------------------------------------------------------------------
# One line per target and per variable; tests/help/check.sh keeps it in step with the README and
# with the targets the makefiles define. The steps of make test are listed from TEST_STEPS.
# Where a target is defined: the build's own (the kernels, run, debug, size) here, the boot
# images' (usb, flash, efi-loader) in boot/; a tool built from tests/ sources (bench, fuzz,
# replay, picture, report) in the build.mk of its directory there, with its code.
help:
	@printf '%s\n' 'Targets:' \
	'  all            the test kernel and its ISO (the default)' \
	'  run            build, boot in QEMU with the serial console here, run the self-tests' \
	'  debug          the machine make run boots, halted, with gdb attached (break on kmain)' \
	'  test           every test step below, then the total "N passed, N failed"' \
	'  kernel         the release kernel and its ISO, in build/release/' \
	'  usb            build/usb.img, the USB stick image for BIOS and UEFI' \
	'  flash          write build/usb.img to the stick DEV= (after checking it is one)' \
	'  size           text, data and bss of mm/ and of the kernel, test and release builds' \
	'  lib            build/lib/libmm.a, its public headers and mm.pc (mm/lib.sh; MM_PREFIX, MM_ENV_H)' \
	'  api            mm/API.md, the API reference, from the public headers'"'"' kernel-doc comments' \
	'  report         tests/report/REPORT.md, every measured figure (SECTIONS= some of them)' \
	'  bench          the page-allocator benchmark on the host, then in the bench kernel' \
	'  bench-host     the benchmark on the host alone' \
	'  bench-kernel   the benchmark in the bench kernel under QEMU alone' \
	'  bench-kernel-owner  the same with page_owner=on (what recording owners costs)' \
	'  bench-count    the host benchmark, instructions counted by single-stepping' \
	'  fragbench      the fragmentation benchmark: 2 MiB blocks left after each workload (host)' \
	'  soak-trampoline  BOOTS= boots with 65 CPUs all started at once for the struct pages (QEMU)' \
	'  fuzz           every fuzzer for FUZZ_SECONDS each; fuzz-NAME runs one:' \
	"                 $(patsubst test-fuzz-%,fuzz-%,$(filter test-fuzz-%,$(TEST_STEPS)))" \
	'  replay         the boot path of mm/ on the memory map MAP=, then its self-check' \
	'  picture        build/picture/memory.svg from the last boot log, or a replay of MAP=' \
	'  deps-picture   install python3, which make picture needs (picture does it)' \
	'  deps-picture-test  install python3 and chromium, which test-picture needs (it does it)' \
	'  deps-aarch64   install the AArch64 cross compiler, qemu-system-arm and dtc (test-port-aarch64 does it)' \
	'  host-test      the host test binary, suites FILTER= (all by default)' \
	'  efi-loader     the direct EFI loader, build/efi/BOOTX64.EFI' \
	'  deps           install the Debian packages the build needs (every target does it)' \
	'  clean          remove build/' \
	'  help           this list' \
	'' 'Variables (make VAR=value target):' \
	'  FIRMWARE=bios|uefi      SeaBIOS or OVMF (run, debug; default bios)' \
	'  MEDIUM=cdrom|usb        boot the image as a CD-ROM or a USB stick (run, debug; default cdrom)' \
	'  MEM=SIZE                guest memory with its unit, 64M, 1G ... (at least 7M, 64M under UEFI)' \
	'  MACHINE=pc|q35          QEMU machine (run, debug; default pc)' \
	'  SMP=N                   CPUs QEMU gives the machine (run, debug; default 2)' \
	'  NUMA='"'"'MEM@CPUS ...'"'"'     NUMA nodes, one per word: '"'"'128M@0 128M@1'"'"' (run, debug; sizes add up to MEM)' \
	'  NUMA_DIST='"'"'A:B:D ...'"'"'   distances between nodes, for a SLIT: '"'"'0:1:21'"'"' (run, debug)' \
	'  ACCEL=tcg|kvm           QEMU accelerator (default tcg)' \
	'  TIMEOUT=SECONDS         when a hung kernel counts as failed (default 300)' \
	'  BOOTS=N                 boots make soak-trampoline runs (default 40)' \
	'  CMDLINE=TEXT            the kernel command line, byte for byte (images, run, usb)' \
	'  PRINT=1                 run and debug print the QEMU command instead of running it' \
	'  RELEASE=1|bench         the release kernel, or it with the benchmark (all, run, debug ...)' \
	'  UEFI_BOOT=grub|loader   what UEFI starts from the USB stick (usb; default grub)' \
	'  DEV=/dev/sdX            the stick make flash writes (without it: the USB disks seen)' \
	'  YES=1                   make flash writes without asking' \
	'  COMPOUND_FLAGS=64|32    the compound-page flag scheme (default 64)' \
	'  MAP=FILE                the memory map make replay and make picture read' \
	'  THREADS=N               make replay: the threads that initialize the struct pages' \
	'  PICTURE_LOG=FILE        the boot log make picture draws without MAP= (default build/logs/run.log)' \
	'  MM_PREFIX=NAME_         make lib prefixes every global symbol of mm/ (and writes mm/prefix.h)' \
	'  MM_ENV_H=FILE           the environment header make lib builds with (default tests/port/mm_env.h)' \
	'  LIB_CC=CC               the compiler make lib uses (default clang, HOSTCC)' \
	'  FILTER=SUITES           the suites host-test runs (name,prefix*)' \
	'  SEED=N OPS=N ASAN_OPS=N the model test'"'"'s seed and operations (test-model)' \
	'  STRESS_SEED=N STRESS_OPS=N STRESS_ASAN_OPS=N STRESS_TSAN_OPS=N' \
	'                          the SMP stress test'"'"'s seed and operations (test-stress*)' \
	'  FUZZ_SECONDS=N          how long each fuzzer runs in make fuzz (default 60)' \
	'  SECTIONS=NAMES          the sections make report regenerates (size counts sample bench-host ...)' \
	'  CONSOLE_FONT=FILE       the PSF font the screen console draws with (.psf.gz)' \
	'' 'Steps of make test (each also runs alone: make STEP):'
	@echo $(TEST_STEPS) | fold -s -w 94 | sed 's/^/  /'

.PHONY: all deps clean run test debug fuzz bench host-test kernel size help
clean:
	rm -rf $(B)

-include $(B)/host/*.d $(B)/host/*/*.d $(B)/host/*/*/*.d
