# SPDX-License-Identifier: MIT
# tests/symbols/: every global symbol of the mm/ objects is declared in a header of mm/.
.PHONY: test-symbols
test-symbols: $(KERNEL)
	@tests/symbols/check.sh $(patsubst %.c,$(KOBJ)/%.o,$(wildcard mm/*.c)) # not a stale object of a removed source
TEST_STEPS += test-symbols
