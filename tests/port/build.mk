# SPDX-License-Identifier: MIT
# tests/port/: mm/ lifted into another "kernel" by following mm/README.md to the letter. build.sh
# copies mm/*.c and mm/*.h alone into $(B)/port/src/mm/ and compiles them freestanding with the
# guide's own build line, so the step fails if mm/ ever includes a header outside mm/ or needs
# something mm/arch.h does not declare; the program then checks the allocator works, and
# check-guide.sh that the guide's example, leak check and figures are the program's.
.PHONY: test-port
test-port:
	@CC=$(HOSTCC) tests/port/build.sh $(B)/port
	$(B)/port/port > $(B)/port/output.txt; status=$$?; cat $(B)/port/output.txt; exit $$status
	tests/port/check-guide.sh $(B)/port/output.txt
TEST_STEPS += test-port
include tests/port/aarch64/build.mk
