/* SPDX-License-Identifier: MIT */
/*
 * The threaded part of the host benchmark (make bench): host threads pinned to two cores, each
 * playing one CPU of mm/. Prints alloc_pages() + __free_pages() pairs per second at orders 0 and 9
 * with one and two threads and their ratio (beside an empty loop's ratio: the host's), the
 * cycles of one order-0 pair on one thread, and pairs allocated on one CPU and freed on the
 * other through a queue. mm/ must have been set up
 * for at least two CPUs (host_mm_nr_cpus, 4 by default). Host only: it needs pthreads.
 */
#ifndef TESTS_BENCH_SMP_BENCH_H
#define TESTS_BENCH_SMP_BENCH_H

void smp_bench(void);

#endif
