# SPDX-License-Identifier: MIT
# tests/bench/: the page-allocator benchmark and the kmalloc/slab one (slab_bench.c). In the test
# kernel and the bench kernel (RELEASE=bench) they register with KBENCH() and run when the command
# line says "bench"; on the host, `make bench` runs them over simulated memory
# (tests/bench/bench_main.c). The fragmentation benchmark (fragbench.c, host only: make fragbench,
# make test-fragbench) is linked with the other host tools in tests/mm/build.mk.
KERNEL_BENCH_SRCS += tests/bench/page_alloc_bench.c tests/bench/slab_bench.c

# make bench runs the host benchmark (tests/mm/build.mk), then this: the same code in the bench
# kernel (the release kernel plus the benchmark: no MM_DEBUG checks, as users ship it), booted
# with "bench" under QEMU -icount shift=0 (guest instructions per pair).
BENCH_KERNEL := $(B)/bench-kernel/kernel.elf
$(B)/bench/bench.iso: FORCE boot/mkiso.sh boot/grub.cfg.in | deps
	@$(MAKE) --no-print-directory RELEASE=bench $(BENCH_KERNEL)
	@mkdir -p $(@D)
	@echo "  ISO     $@"
	$(Q)boot/mkiso.sh $(BENCH_KERNEL) 'bench' $@

.PHONY: bench-kernel
bench-kernel: $(B)/bench/bench.iso
	@tests/bench/kernel-bench.sh $< $(B)/logs/bench-kernel.log

# The same with page_owner=on: what recording every block's owner costs a pair.
$(B)/bench/bench-owner.iso: $(B)/bench/bench.iso
	$(Q)boot/mkiso.sh $(BENCH_KERNEL) 'bench page_owner=on' $@

.PHONY: bench-kernel-owner
bench-kernel-owner: $(B)/bench/bench-owner.iso
	@tests/bench/kernel-bench.sh $< $(B)/logs/bench-kernel-owner.log

bench: bench-kernel bench-kernel-owner
