/* SPDX-License-Identifier: MIT */
/*
 * Benchmark registry: a file registers a benchmark with KBENCH(); kmain() finds every one through
 * the "kbench" linker section and runs them when the command line says "bench", without knowing
 * which are linked in (none in a release build). Like KTEST_SUITE() in tests/ktest/ktest.h.
 *
 *   static void page_alloc_bench(void) { ... }
 *   KBENCH(page_alloc, page_alloc_bench);
 */
#ifndef KERNEL_KBENCH_H
#define KERNEL_KBENCH_H

struct kbench {
	const char *name;
	void (*run)(void); /* prints its own "bench: " lines */
};

/* A pointer, not the struct itself, goes in the section so sanitizer padding cannot break the walk. */
#define KBENCH(ident, fn)                                                   \
	static const struct kbench ident##_kbench = { #ident, fn };          \
	static const struct kbench *const ident##_kbench_ptr                 \
		__attribute__((used, section("kbench"))) = &ident##_kbench

#endif
