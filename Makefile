# Top-level build: the kernel, its boot images, the host tests, and the QEMU test matrix.
# Each directory adds its sources in its own build.mk; this file holds the rules.

.DEFAULT_GOAL := all
.SUFFIXES:
.DELETE_ON_ERROR:

B        := build
FIRMWARE ?= bios
MEDIUM   ?= cdrom
MEM      ?= 256M
MACHINE  ?= pc
ACCEL    ?= tcg
CMDLINE  ?=
TIMEOUT  ?= 120
COMPOUND_FLAGS ?= 64

# ---- toolchains -----------------------------------------------------------------------------
CC      := gcc
LD      := ld
NASM    := nasm
HOSTCC  := clang

WARN    := -Wall -Wextra -Werror=implicit-function-declaration
KCFLAGS := -std=gnu11 -O2 -g $(WARN) -ffreestanding -fno-builtin -nostdinc -isystem $(shell $(CC) -print-file-name=include) \
           -mno-red-zone -mcmodel=kernel -mno-mmx -mno-sse -mno-sse2 -mgeneral-regs-only \
           -fno-pic -fno-pie -fno-stack-protector -fno-omit-frame-pointer -fno-asynchronous-unwind-tables \
           -I. -DCOMPOUND_FLAGS=$(COMPOUND_FLAGS) -DMM_DEBUG=1 -MMD -MP
KLDFLAGS := -n -nostdlib -z max-page-size=0x1000 -T linker.ld
HOSTCFLAGS := -std=gnu11 -O1 -g $(WARN) -I. -DHOST_BUILD -DCOMPOUND_FLAGS=$(COMPOUND_FLAGS) -DMM_DEBUG=1 \
              -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -MMD -MP

# ---- sources (each directory appends) ---------------------------------------------------------
KERNEL_ASM  :=
KERNEL_SRCS :=
HOST_SRCS   :=
include boot/build.mk kernel/build.mk lib/build.mk mm/build.mk tests/build.mk

KOBJ := $(B)/kernel-$(COMPOUND_FLAGS)
KERNEL_OBJS := $(KERNEL_ASM:%.asm=$(KOBJ)/%.o) $(KERNEL_SRCS:%.c=$(KOBJ)/%.o)
KERNEL := $(B)/kernel.elf

all: $(KERNEL) $(B)/os.iso

$(KOBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(KCFLAGS) -c $< -o $@

$(KOBJ)/%.o: %.asm
	@mkdir -p $(dir $@)
	$(NASM) -f elf64 -g -F dwarf -w+all -MD $(@:.o=.d) $< -o $@

$(B)/kernel-$(COMPOUND_FLAGS).elf: $(KERNEL_OBJS) linker.ld
	$(LD) $(KLDFLAGS) $(KERNEL_OBJS) -o $@

$(KERNEL): $(B)/kernel-$(COMPOUND_FLAGS).elf
	cp $< $@

-include $(KERNEL_OBJS:.o=.d)

# ---- Debian packages ------------------------------------------------------------------------
# Each target that needs tools depends on deps; it installs only what is missing and says what.
DEB_PKGS := qemu-system-x86 nasm grub-pc-bin grub-efi-amd64-bin grub-common xorriso mtools gnu-efi ovmf \
            clang libclang-rt-dev gcc make console-setup-linux dosfstools
deps:
	@missing=""; for p in $(DEB_PKGS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "deps: installing Debian packages:$$missing"; \
		SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null || \
			{ echo "deps: apt-get install failed for:$$missing"; exit 1; }; \
	fi

.PHONY: all deps clean run test debug fuzz bench host-test
clean:
	rm -rf $(B)

-include $(B)/host/*.d $(B)/host/*/*.d $(B)/host/*/*/*.d
