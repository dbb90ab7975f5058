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

# The report's sample of make run's output (make report SECTIONS=sample): the machine make run
# boots, by default, must print the plan, totals, summary and CPUs line the report quotes.
.PHONY: test-readme-sample
test-readme-sample: $(B)/os.iso
	@tests/qemu/readme-sample-test.sh $(REPORT) $(B)/logs/readme-sample.log $(SAMPLE_MACHINE) \
		--timeout $(TIMEOUT) --image $(B)/os.iso
TEST_STEPS += test-readme-sample
