# SPDX-License-Identifier: MIT
# The USB stick image (make usb) in the QEMU matrix, booted as a USB stick on xHCI: under SeaBIOS
# (GRUB for BIOS), under OVMF with GRUB, and under OVMF with the direct loader. Each runs every
# self-test through tests/qemu/run.sh.
define usb_step
.PHONY: test-usb-$(1)
test-usb-$(1): $(B)/usb-$(4).img
	$$(QEMU_RUN) --firmware $(2) --medium usb --mem 256M --machine $(3) --image $$< \
		--log $(B)/logs/usb-$(1).log
TEST_STEPS += test-usb-$(1)
endef
$(eval $(call usb_step,bios,bios,pc,grub))
$(eval $(call usb_step,uefi-grub,uefi,q35,grub))
$(eval $(call usb_step,uefi-loader,uefi,q35,loader))
