# SPDX-License-Identifier: MIT
# tests/flash/: test-flash runs boot/flash.sh, what make flash runs (boot/usb.mk), against fake
# device trees.
.PHONY: test-flash
test-flash:
	@WORK=$(B)/flash-test tests/flash/test.sh
TEST_STEPS += test-flash
