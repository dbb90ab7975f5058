# SPDX-License-Identifier: MIT
# tests/release/: the release kernel (make kernel): test-release builds it from scratch and boots
# it; make size compares the sizes of mm/ and of the kernel with and without the debug options.
RELEASE_CHECK_DIR := $(B)/release-check

.PHONY: test-release size
test-release: | deps
	@tests/release/check.sh $(RELEASE_CHECK_DIR) $(B)/logs $(TIMEOUT)
TEST_STEPS += test-release

size:
	@$(MAKE) --no-print-directory RELEASE= $(B)/kernel.elf
	@$(MAKE) --no-print-directory RELEASE=1 $(B)/release/kernel.elf
	@tests/release/size.sh $(B)/kernel-$(COMPOUND_FLAGS) $(B)/kernel.elf \
		$(B)/release/kernel-$(COMPOUND_FLAGS) $(B)/release/kernel.elf
