# SPDX-License-Identifier: MIT
# tests/ksyms/: the kernel's symbol table matches the kernel it is linked into.
.PHONY: test-ksyms
test-ksyms: $(KERNEL)
	@tests/ksyms/check.sh $(KERNEL) $(KSYMS_TABLE_C)
TEST_STEPS += test-ksyms
