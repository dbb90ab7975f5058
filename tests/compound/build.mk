# SPDX-License-Identifier: MIT
# tests/compound/: the compound-page and hugetlb checks that need a build of their own. (Their
# self-test suites are tests/ktest/compound_*.c and hugetlb_*.c, built into every binary.)
#
# test-host-compound32: the whole host test binary again, built with COMPOUND_FLAGS=32 (every
#   compound page marked PG_compound, tails also PG_reclaim) in its own object directory.
# test-qemu-gigantic32: the COMPOUND_FLAGS=32 kernel booted with 3 GiB and
#   "hugepagesz=1G hugepages=1", running the compound, hugetlb, folio and contig_alloc suites; the
#   1 GiB page case must run, not be skipped (contig_alloc gives the page back to the buddy
#   allocator and grows the pool by a 1 GiB page again after boot).
.PHONY: test-host-compound32 test-qemu-gigantic32

test-host-compound32:
	@$(MAKE) --no-print-directory COMPOUND_FLAGS=32 host-test
TEST_STEPS += test-host-compound32

GIGANTIC_DIR := $(B)/gigantic32
GIGANTIC_SUITES := compound_pages,compound_misuse,compound_split,compound_ringbuf_example,hugetlb_pool,hugetlb_random,hugetlb_boot,folio,contig_alloc
GIGANTIC_CMDLINE := hugepagesz=1G hugepages=1 ktest=$(GIGANTIC_SUITES)

$(GIGANTIC_DIR)/os.iso: FORCE | deps
	@$(MAKE) --no-print-directory COMPOUND_FLAGS=32 $(B)/kernel-32.elf
	$(Q)boot/mkiso.sh $(B)/kernel-32.elf '$(GIGANTIC_CMDLINE)' $@

test-qemu-gigantic32: $(GIGANTIC_DIR)/os.iso
	@tests/compound/require-case.sh $(B)/logs/qemu-gigantic32.log gigantic_pages_are_compound_pool_pages \
		$(QEMU_RUN) --firmware bios --medium cdrom --mem 3G --machine pc --image $< \
		--cmdline-note "$(GIGANTIC_CMDLINE)" --log $(B)/logs/qemu-gigantic32.log
TEST_STEPS += test-qemu-gigantic32
