# tests/bench/: the page-allocator benchmark. In the kernel (all but the release one) it registers
# with KBENCH() and runs when the command line says "bench"; on the host, `make bench` runs it
# over simulated memory (tests/mm/bench_main.c).
KERNEL_TEST_SRCS += tests/bench/page_alloc_bench.c

# make bench runs the host benchmark (tests/mm/build.mk), then this: the same code in the kernel,
# booted with "bench" under QEMU -icount shift=0 (guest instructions per pair).
$(B)/bench/bench.iso: $(KERNEL) boot/mkiso.sh boot/grub.cfg.in | deps
	@mkdir -p $(@D)
	@echo "  ISO     $@"
	$(Q)boot/mkiso.sh $(KERNEL) 'bench' $@

.PHONY: bench-kernel
bench-kernel: $(B)/bench/bench.iso
	@tests/bench/kernel-bench.sh $< $(B)/logs/bench-kernel.log

bench: bench-kernel
