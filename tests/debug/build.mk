# SPDX-License-Identifier: MIT
# tests/debug/: what `make debug` promises works: gdb stops the kernel under QEMU's stub and calls
# show_mem() (tests/debug/gdb-show-mem.sh).
DEBUG_TEST_DIR := $(B)/debug-test
$(DEBUG_TEST_DIR)/os.iso: $(KERNEL) boot/grub.cfg.in boot/mkgrubcfg.sh boot/mkiso.sh | deps
	$(Q)boot/mkiso.sh $(KERNEL) 'ktest=off' $@

.PHONY: test-debug-show-mem
test-debug-show-mem: $(DEBUG_TEST_DIR)/os.iso
	@tests/debug/gdb-show-mem.sh $(KERNEL) $< $(B)/logs/debug-show-mem.log
TEST_STEPS += test-debug-show-mem
