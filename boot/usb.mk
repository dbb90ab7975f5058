# SPDX-License-Identifier: MIT
# make usb: build/usb.img, one raw disk image for a USB stick that boots on BIOS (GRUB) and on UEFI
# (GRUB or the direct loader, both on the stick; UEFI_BOOT=grub|loader picks which one
# \EFI\BOOT\BOOTX64.EFI is). boot/mkusb.sh lays it out. CMDLINE= goes into GRUB's grub.cfg and into
# \boot\cmdline.txt for the loader alike, byte for byte. The QEMU tests boot build/usb-grub.img and
# build/usb-loader.img, the two variants, whatever UEFI_BOOT is.
UEFI_BOOT ?= grub
ifeq ($(filter grub loader,$(UEFI_BOOT)),)
$(error UEFI_BOOT must be grub or loader, not '$(UEFI_BOOT)')
endif

# grub-grub.cfg refuses a command line GRUB cannot pass unchanged; on the loader's stick,
# grub-loader.cfg then only says so (boot/mkgrubcfg.sh).
.PRECIOUS: $(IMG_DIR)/usb/grub-%.cfg
$(IMG_DIR)/usb/grub-%.cfg: boot/grub.cfg.in boot/mkgrubcfg.sh $(IMG_DIR)/cmdline.txt
	@mkdir -p $(@D)
	$(Q)boot/mkgrubcfg.sh $(if $(filter loader,$*),or-refuse-at-boot,strict) "$$KERNEL_CMDLINE" $@

# The kernel is named in full: this file is read before the top Makefile defines $(KERNEL).
$(IMG_DIR)/usb-%.img: boot/mkusb.sh $(B)/kernel.elf $(EFI_APP) $(IMG_DIR)/usb/grub-%.cfg $(IMG_DIR)/cmdline.txt | deps
	boot/mkusb.sh $@ $(IMG_DIR)/usb-$* $(B)/kernel.elf $(EFI_APP) $(IMG_DIR)/usb/grub-$*.cfg $(IMG_DIR)/cmdline.txt $*

# usb.img.cmdline records the command line the image carries, for make flash to check.
$(IMG_DIR)/usb.img: $(IMG_DIR)/usb-$(UEFI_BOOT).img
	cp $< $@
	cp $(IMG_DIR)/cmdline.txt $@.cmdline

.PHONY: usb
usb: $(IMG_DIR)/usb.img

# make flash DEV=/dev/sdX writes build/usb.img to a USB stick (boot/flash.sh does every check).
# It never builds the image: it writes what make usb built, and refuses when a CMDLINE= given now
# is not the one the image carries (boot/flash.sh compares it with build/usb.img.cmdline).
.PHONY: flash
flash:
	@FLASH_CMDLINE_GIVEN=$(if $(CMDLINE_GIVEN),1) boot/flash.sh $(B)/usb.img "$(DEV)"
