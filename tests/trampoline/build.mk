# SPDX-License-Identifier: MIT
# tests/trampoline/: the AP trampoline uses no stack (tests/trampoline/check.sh says why).
.PHONY: test-trampoline
test-trampoline:
	@tests/trampoline/check.sh
TEST_STEPS += test-trampoline

# A soak, not part of `make test`: BOOTS boots (default 40) of the 65-CPU step's ISO, every CPU
# started at once for the struct pages.
BOOTS ?= 40
.PHONY: soak-trampoline
soak-trampoline: $(B)/smp65/os.iso
	@tests/trampoline/soak.sh $< $(BOOTS) $(B)/logs/soak-trampoline --accel $(ACCEL) --timeout $(TIMEOUT)
