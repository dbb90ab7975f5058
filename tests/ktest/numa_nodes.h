/* SPDX-License-Identifier: MIT */
/*
 * The numa_nodes suite's cases (tests/ktest/numa_nodes.c), which hold on whatever node layout
 * mm/ runs with: the host suite numa_layouts (tests/mm/numa_layout_test.c) runs them again on
 * the 2- and 4-node layouts it builds.
 */
#ifndef TESTS_KTEST_NUMA_NODES_H
#define TESTS_KTEST_NUMA_NODES_H

#include "tests/ktest/ktest.h"

void numa_pages_come_from_the_asked_node(struct ktest *t);
void numa_thisnode_fails_rather_than_fall_back(struct ktest *t);
void numa_a_node_without_memory_falls_back_to_the_nearest(struct ktest *t);
void numa_counters_count_hits_and_local_allocations(struct ktest *t);
void numa_node_meminfo_sums_to_the_global_figures(struct ktest *t);
void numa_interleave_visits_every_node_with_memory(struct ktest *t);
void numa_vmstat_counters_sum_the_nodes_and_move(struct ktest *t);
void numa_dump_page_names_the_node(struct ktest *t);
void numa_each_memmap_lies_in_its_node(struct ktest *t);
void numa_every_cpu_is_on_a_node(struct ktest *t);

/* The nearest node with memory to nid (distance, then number), or -1 when none has memory. */
int numa_nearest_with_memory(unsigned int nid);

/* Does node nid have memory the buddy allocator manages? */
bool numa_node_has_memory(unsigned int nid);

#endif
