# SPDX-License-Identifier: MIT
# tests/stress/: the SMP stress test of mm/ (tests/stress/stress.h): a core shared with the
# kernel's suite, and its host driver (one pthread per CPU). `make test` runs it three ways:
#   test-stress       built for speed (-O2), 2, 4 and 8 threads: most of the operations;
#   test-stress-asan  AddressSanitizer and UBSan with page poisoning, 2, 4 and 8 threads;
#   test-stress-tsan  ThreadSanitizer (its own objects), 2, 4 and 8 threads, with page_owner's
#                     records written by every thread at once; any report fails.
# STRESS_OPS, STRESS_ASAN_OPS, STRESS_TSAN_OPS: the operations of each step, all threads and runs
# together (10^7 or more in all). STRESS_SEED: the seed. Page poisoning costs the most (every
# freed page is filled and checked again), so the poisoned run is the shortest.
STRESS_CORE_SRCS := tests/stress/stress_worker.c tests/stress/stress_irq.c tests/stress/stress_run.c \
                    tests/stress/stress_migrate.c
STRESS_SRCS      := $(STRESS_CORE_SRCS) tests/stress/main.c
STRESS           := $(B)/host/stress
STRESS_ASAN      := $(B)/host/stress-asan
STRESS_TSAN      := $(B)/host/stress-tsan
STRESS_OPS       ?= 9600000
STRESS_ASAN_OPS  ?= 450000
STRESS_TSAN_OPS  ?= 3600000
STRESS_SEED      ?= 0x5354524553535e

# ThreadSanitizer cannot be mixed with the other sanitizers: every object of its binary is built
# again, in a directory of its own.
TSAN_OBJ    := $(B)/host/tsan-$(COMPOUND_FLAGS)
TSAN_CFLAGS := -std=gnu11 -O1 -g $(WARN) -I. -DHOST_BUILD $(HOST_MM_ENV) -DCOMPOUND_FLAGS=$(COMPOUND_FLAGS) \
               -DMM_DEBUG=1 -fsanitize=thread -fno-omit-frame-pointer -MMD -MP

$(TSAN_OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $< (TSan)"
	$(Q)$(HOSTCC) $(TSAN_CFLAGS) -c $< -o $@

STRESS_OBJS      := $(patsubst %.c,$(MM_TOOL_OBJ)/%.o,$(MM_TOOL_LIB) $(STRESS_SRCS))
STRESS_ASAN_OBJS := $(patsubst %.c,$(HOST_OBJ)/%.o,$(MM_TOOL_LIB) $(STRESS_SRCS))
STRESS_TSAN_OBJS := $(patsubst %.c,$(TSAN_OBJ)/%.o,$(MM_TOOL_LIB) $(STRESS_SRCS))
$(STRESS): $(STRESS_OBJS)
	$(Q)$(HOSTCC) -pthread $(filter-out %.link,$^) -o $@
$(eval $(call link_list,$(STRESS),$(STRESS_OBJS)))

$(STRESS_ASAN): $(STRESS_ASAN_OBJS)
	$(Q)$(HOSTCC) $(HOSTCFLAGS) -pthread $(filter-out %.link,$^) -o $@
$(eval $(call link_list,$(STRESS_ASAN),$(STRESS_ASAN_OBJS)))

$(STRESS_TSAN): $(STRESS_TSAN_OBJS)
	$(Q)$(HOSTCC) -fsanitize=thread -pthread $(filter-out %.link,$^) -o $@
$(eval $(call link_list,$(STRESS_TSAN),$(STRESS_TSAN_OBJS)))

-include $(STRESS_SRCS:%.c=$(HOST_OBJ)/%.d) $(wildcard $(TSAN_OBJ)/*/*.d $(TSAN_OBJ)/*/*/*.d)

.PHONY: test-stress test-stress-asan test-stress-tsan
test-stress: $(STRESS)
	@tests/stress/run.sh $(STRESS) '$(STRESS_OPS)' '$(STRESS_SEED)' '2 4 8'
test-stress-asan: $(STRESS_ASAN)
	@tests/stress/run.sh $(STRESS_ASAN) '$(STRESS_ASAN_OPS)' '$(STRESS_SEED)' '2 4 8' --poison
test-stress-tsan: $(STRESS_TSAN)
	@tests/stress/run.sh $(STRESS_TSAN) '$(STRESS_TSAN_OPS)' '$(STRESS_SEED)' '2 4 8' --page-owner
TEST_STEPS += test-stress test-stress-asan test-stress-tsan

# The kernel's suite (tests/ktest/kernel/smp_stress.c) runs the same core on every CPU.
KERNEL_TEST_SRCS += $(STRESS_CORE_SRCS)
