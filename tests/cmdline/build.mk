# SPDX-License-Identifier: MIT
# tests/cmdline/: the kernel command line arrives byte for byte and never runs as a command.
# test-cmdline builds boot images with hostile command lines in build/cmdline-test/ (through make,
# as `make run CMDLINE=...` does) and boots them under SeaBIOS and OVMF, from CD-ROM and USB stick,
# through GRUB and the direct EFI loader; see tests/cmdline/test.sh.
.PHONY: test-cmdline
test-cmdline: $(KERNEL) $(EFI_APP) | deps
	@MAKE="$(MAKE)" tests/cmdline/test.sh
TEST_STEPS += test-cmdline
