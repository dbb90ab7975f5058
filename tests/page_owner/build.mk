# SPDX-License-Identifier: MIT
# tests/page_owner/: the test kernel booted with page_owner=on on two CPUs runs every suite with
# its allocation records: the page_owner suite must run (not skip), and the runner's leak check
# can name owners. The other QEMU steps boot with page_owner off, its default.
PAGE_OWNER_DIR := $(B)/page-owner
PAGE_OWNER_CMDLINE := page_owner=on
$(PAGE_OWNER_DIR)/os.iso: $(KERNEL) boot/grub.cfg.in boot/mkgrubcfg.sh boot/mkiso.sh | deps
	$(Q)boot/mkiso.sh $(KERNEL) '$(PAGE_OWNER_CMDLINE)' $@

.PHONY: test-qemu-page-owner
test-qemu-page-owner: $(PAGE_OWNER_DIR)/os.iso
	@tests/compound/require-case.sh $(B)/logs/qemu-page-owner.log sequence_numbers_grow_by_one_per_allocation \
		$(QEMU_RUN) --firmware bios --medium cdrom --mem 256M --machine pc --smp 2 --image $< \
		--cmdline-note "$(PAGE_OWNER_CMDLINE)" --log $(B)/logs/qemu-page-owner.log
TEST_STEPS += test-qemu-page-owner
