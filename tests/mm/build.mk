# SPDX-License-Identifier: MIT
# tests/mm/: the host harness of mm/ (simulated physical memory), host-only test suites, the map
# replay, and the host tools' link rules (the benchmarks' mains are tests/bench/bench_main.c and
# tests/bench/fragbench_main.c). The fuzzers of mm/ are in tests/fuzz/.
HOST_SRCS += tests/mm/host_arch.c tests/mm/mm_check.c tests/mm/map_text.c tests/mm/mm_rebuild.c kernel/boot_memmap.c \
             $(wildcard tests/mm/*_test.c)

# Tools built for speed: -O2, no sanitizers (the host test binary has those).
MM_TOOL_CFLAGS := -std=gnu11 -O2 -g $(WARN) -I. -DHOST_BUILD $(HOST_MM_ENV) -DCOMPOUND_FLAGS=$(COMPOUND_FLAGS) \
                  -DMM_DEBUG=1 -MMD -MP
MM_TOOL_OBJ := $(B)/host/tools-$(COMPOUND_FLAGS)
MM_TOOL_LIB := $(wildcard mm/*.c) lib/printk.c tests/mm/host_arch.c tests/mm/mm_check.c tests/mm/map_text.c \
               kernel/boot_memmap.c

$(MM_TOOL_OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $< (-O2)"
	$(Q)$(HOSTCC) $(MM_TOOL_CFLAGS) -c $< -o $@

REPLAY := $(B)/host/replay
REPLAY_OBJS := $(patsubst %.c,$(MM_TOOL_OBJ)/%.o,$(MM_TOOL_LIB) tests/mm/replay.c)
$(REPLAY): $(REPLAY_OBJS)
	$(Q)$(HOSTCC) $(filter-out %.link,$^) -o $@
$(eval $(call link_list,$(REPLAY),$(REPLAY_OBJS)))

-include $(wildcard $(MM_TOOL_OBJ)/*/*.d $(MM_TOOL_OBJ)/*/*/*.d)

# make replay MAP=file: the boot path of mm/ on one memory map, then the exhaustive self-check;
# THREADS=N initializes the struct pages on N threads (mm_init_params.run_parallel).
.PHONY: replay test-replay
replay: $(REPLAY)
	@test -n "$(MAP)" || { echo "usage: make replay MAP=tests/fixtures/memmaps/qemu-pc-128m.txt"; exit 2; }
	$(REPLAY) $(if $(THREADS),--memmap-threads=$(THREADS)) $(MAP)

# Generated maps: 10,000 entries (reserved pages inside usable RAM, so about 10,000 memblock
# ranges), and one entry past the hard limit of 16384, which must be refused.
MAPS_DIR := $(B)/maps
$(MAPS_DIR)/entries-10000.txt: tests/mm/gen-map.sh
	@mkdir -p $(@D)
	$(Q)tests/mm/gen-map.sh 9997 65 > $@
$(MAPS_DIR)/entries-16385.txt: tests/mm/gen-map.sh
	@mkdir -p $(@D)
	$(Q)tests/mm/gen-map.sh 16382 16 > $@

# In `make test`: every fixture map and the generated one, one line each, then the maps that must
# be refused; one "N passed, N failed" line for all of them.
test-replay: $(REPLAY) $(MAPS_DIR)/entries-10000.txt $(MAPS_DIR)/entries-16385.txt
	@{ $(REPLAY) -q $(sort $(wildcard tests/fixtures/memmaps/*.txt)) $(MAPS_DIR)/entries-10000.txt; \
	   $(REPLAY) -x $(sort $(wildcard tests/fixtures/memmaps/refused/*.txt)) $(MAPS_DIR)/entries-16385.txt; } | \
	   tests/mm/sum-counts.sh
TEST_STEPS += test-replay

# ---- make bench: the page-allocator benchmark on the host (-O2, no sanitizers) -----------------
# Without MM_DEBUG, as the bench kernel is: what users ship, not its checks (MM_BUG_ON, the lock
# order's validator, slab debugging and poisoning by default).
BENCH_TOOL_OBJ := $(B)/host/bench-tools-$(COMPOUND_FLAGS)
$(BENCH_TOOL_OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $< (-O2, no MM_DEBUG)"
	$(Q)$(HOSTCC) $(filter-out -DMM_DEBUG=1,$(MM_TOOL_CFLAGS)) -c $< -o $@
-include $(wildcard $(BENCH_TOOL_OBJ)/*/*.d $(BENCH_TOOL_OBJ)/*/*/*.d)

BENCH := $(B)/host/bench
BENCH_OBJS := $(patsubst %.c,$(BENCH_TOOL_OBJ)/%.o,$(MM_TOOL_LIB) tests/bench/page_alloc_bench.c tests/bench/slab_bench.c \
                         tests/bench/smp_bench.c tests/bench/bench_main.c)
$(BENCH): $(BENCH_OBJS)
	$(Q)$(HOSTCC) -pthread $(filter-out %.link,$^) -o $@
$(eval $(call link_list,$(BENCH),$(BENCH_OBJS)))

# make bench's host part; bench-host runs it alone.
.PHONY: bench-host
bench: bench-host
bench-host: $(BENCH)
	$(BENCH)

# Instructions per pair where the CPU's counters are not available: exact, by single-stepping.
.PHONY: bench-count
bench-count: $(BENCH)
	$(BENCH) --single-step

# ---- make fragbench: the fragmentation benchmark on the host (-O2, no sanitizers) --------------
# Its workloads are defined in README.md ("Fragmentation"); tests/bench/fragbench-test.sh runs it
# small, twice, and holds its ratios to floors.
FRAGBENCH := $(B)/host/fragbench
$(FRAGBENCH): $(patsubst %.c,$(MM_TOOL_OBJ)/%.o,$(MM_TOOL_LIB) tests/mm/mm_rebuild.c tests/bench/fragbench.c \
                       tests/bench/fragbench_main.c)
	$(Q)$(HOSTCC) $^ -o $@

.PHONY: fragbench test-fragbench
fragbench: $(FRAGBENCH)
	$(FRAGBENCH)

test-fragbench: $(FRAGBENCH)
	@tests/bench/fragbench-test.sh $(FRAGBENCH)
TEST_STEPS += test-fragbench
