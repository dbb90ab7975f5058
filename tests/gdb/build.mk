# SPDX-License-Identifier: MIT
# tests/gdb/: gdb reads the test kernel's debug information (the ELF alone, no QEMU) without a
# warning, at both ends of every address range the DWARF lists.
.PHONY: test-gdb
test-gdb: $(KERNEL) | deps
	@tests/gdb/check.sh $(KERNEL)
TEST_STEPS += test-gdb
