# make usb: build/usb.img, one raw disk image for a USB stick that boots on BIOS (GRUB) and on UEFI
# (GRUB or the direct loader, both on the stick; UEFI_BOOT=grub|loader picks which one
# \EFI\BOOT\BOOTX64.EFI is). boot/mkusb.sh lays it out. CMDLINE= goes into GRUB's grub.cfg and into
# \boot\cmdline.txt for the loader alike. The QEMU tests boot build/usb-grub.img and
# build/usb-loader.img, the two variants, whatever UEFI_BOOT is.
UEFI_BOOT ?= grub
ifeq ($(filter grub loader,$(UEFI_BOOT)),)
$(error UEFI_BOOT must be grub or loader, not '$(UEFI_BOOT)')
endif

$(B)/usb/grub.cfg: boot/grub.cfg.in $(B)/cmdline.txt
	@mkdir -p $(dir $@)
	sed 's|@CMDLINE@|$(CMDLINE)|' $< > $@

# The kernel is named in full: this file is read before the top Makefile defines $(KERNEL).
$(B)/usb-%.img: boot/mkusb.sh $(B)/kernel.elf $(EFI_APP) $(B)/usb/grub.cfg $(B)/cmdline.txt | deps
	boot/mkusb.sh $@ $(B)/usb-$* $(B)/kernel.elf $(EFI_APP) $(B)/usb/grub.cfg $(B)/cmdline.txt $*

$(B)/usb.img: $(B)/usb-$(UEFI_BOOT).img
	cp $< $@

.PHONY: usb
usb: $(B)/usb.img
