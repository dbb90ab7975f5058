# SPDX-License-Identifier: MIT
# boot/efi/: the direct UEFI loader, a PE application built with Debian's gnu-efi as gnu-efi
# documents: objects compiled position-independent against its headers, linked as a shared ELF
# with its crt0 and linker script, then turned into PE32+ by objcopy. Output: build/efi/BOOTX64.EFI.
EFI_SRCS := boot/efi/loader.c boot/efi/say.c boot/efi/elf_load.c boot/efi/mbi.c boot/efi/cmdline_file.c
EFI_OBJ  := $(B)/efi
EFI_APP  := $(EFI_OBJ)/BOOTX64.EFI
GNUEFI_INC := /usr/include/efi
GNUEFI_LIB := /usr/lib
EFI_CFLAGS := -std=gnu11 -O2 -g $(WARN) -ffreestanding -fpic -fshort-wchar -fno-stack-protector \
              -fno-stack-check -mno-red-zone -maccumulate-outgoing-args -DGNU_EFI_USE_MS_ABI \
              -I$(GNUEFI_INC) -I$(GNUEFI_INC)/x86_64 -I. -MMD -MP
EFI_LDFLAGS := -nostdlib -shared -Bsymbolic -znocombreloc -T $(GNUEFI_LIB)/elf_x86_64_efi.lds
EFI_SECTIONS := .text .sdata .data .rodata .dynamic .dynsym .rel .rela .rel.* .rela.* .reloc

$(EFI_OBJ)/%.o: %.c | deps
	@mkdir -p $(dir $@)
	@echo "  EFICC   $<"
	$(Q)$(CC) $(EFI_CFLAGS) -c $< -o $@

$(EFI_OBJ)/loader.so: $(EFI_SRCS:%.c=$(EFI_OBJ)/%.o)
	@echo "  EFILD   $@"
	$(Q)$(LD) $(EFI_LDFLAGS) $(GNUEFI_LIB)/crt0-efi-x86_64.o $^ -L$(GNUEFI_LIB) -lefi -lgnuefi \
		$(shell $(CC) -print-libgcc-file-name) -o $@
	@# A PE image cannot apply relocations of any other kind: fail here, not on the machine.
	$(Q)! readelf -rW $@ | awk 'NR > 3 && $$3 ~ /^R_/ && $$3 != "R_X86_64_RELATIVE"' | grep . || \
		{ echo "$@: relocations other than R_X86_64_RELATIVE"; exit 1; }

$(EFI_APP): $(EFI_OBJ)/loader.so
	@echo "  EFIAPP  $@"
	$(Q)objcopy $(addprefix -j ,$(EFI_SECTIONS)) --target efi-app-x86_64 --subsystem=10 $< $@

.PHONY: efi-loader
efi-loader: $(EFI_APP)
all: $(EFI_APP)

-include $(EFI_SRCS:%.c=$(EFI_OBJ)/%.d)
include boot/usb.mk
