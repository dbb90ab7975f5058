# SPDX-License-Identifier: MIT
# make flash DEV=/dev/sdX writes build/usb.img to a USB stick (boot/flash.sh does every check);
# test-flash runs that script against fake device trees.
.PHONY: flash test-flash
flash: $(B)/usb.img
	@boot/flash.sh $(B)/usb.img "$(DEV)"

test-flash:
	@WORK=$(B)/flash-test tests/flash/test.sh
TEST_STEPS += test-flash
