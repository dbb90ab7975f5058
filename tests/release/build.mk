# SPDX-License-Identifier: MIT
# tests/release/: the release kernel (make kernel): test-release builds it from scratch and boots
# it. make size (defined in the Makefile, beside make kernel) prints its sizes with tests/release/size.sh.
RELEASE_CHECK_DIR := $(B)/release-check

.PHONY: test-release
test-release: | deps
	@tests/release/check.sh $(RELEASE_CHECK_DIR) $(B)/logs $(TIMEOUT)
TEST_STEPS += test-release

