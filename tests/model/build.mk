# SPDX-License-Identifier: MIT
# tests/model/: the long random test of mm/ against a reference model. `make test-model` runs it
# twice: built for speed (-O2, no sanitizers) for OPS operations, then under AddressSanitizer and
# UBSan with page poisoning for ASAN_OPS operations (OPS / 10 by default) on the next seed.
#   make test-model [SEED=0x...] [OPS=N] [ASAN_OPS=N]
MODEL_SRCS := $(wildcard tests/model/*.c)
MODEL      := $(B)/host/mm-model
MODEL_ASAN := $(B)/host/mm-model-asan
SEED       ?= 0x6d6f64656c
OPS        ?= 10000000
ASAN_OPS   ?=

MODEL_OBJS      := $(patsubst %.c,$(MM_TOOL_OBJ)/%.o,$(MM_TOOL_LIB) $(MODEL_SRCS))
MODEL_ASAN_OBJS := $(patsubst %.c,$(HOST_OBJ)/%.o,$(MM_TOOL_LIB) $(MODEL_SRCS))
$(MODEL): $(MODEL_OBJS)
	$(Q)$(HOSTCC) $(filter-out %.link,$^) -o $@
$(eval $(call link_list,$(MODEL),$(MODEL_OBJS)))

$(MODEL_ASAN): $(MODEL_ASAN_OBJS)
	$(Q)$(HOSTCC) $(HOSTCFLAGS) $(filter-out %.link,$^) -o $@
$(eval $(call link_list,$(MODEL_ASAN),$(MODEL_ASAN_OBJS)))

-include $(MODEL_SRCS:%.c=$(HOST_OBJ)/%.d)

.PHONY: test-model
test-model: $(MODEL) $(MODEL_ASAN)
	@tests/model/run.sh $(MODEL) $(MODEL_ASAN) '$(SEED)' '$(OPS)' '$(ASAN_OPS)'
TEST_STEPS += test-model
