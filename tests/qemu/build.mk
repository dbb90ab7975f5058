# SPDX-License-Identifier: MIT
# tests/qemu/: the QEMU runner (run.sh, used by the QEMU matrix in tests/build.mk and by make run)
# and its KTAP parser (ktap-check.sh). Here the parser is tested on logs with known verdicts.
.PHONY: test-ktap-parser
test-ktap-parser:
	@tests/qemu/ktap-parser-test.sh
TEST_STEPS += test-ktap-parser

# make run and make debug: MEM= refused before anything is built, the machine make debug boots.
.PHONY: test-make-args
test-make-args: $(B)/os.iso
	@tests/qemu/make-args-test.sh
TEST_STEPS += test-make-args
