# SPDX-License-Identifier: MIT
# tests/steps/: the runner of make test (tests/run-steps.sh) on steps of a stand-in make.
.PHONY: test-run-steps
test-run-steps:
	@tests/steps/test.sh
TEST_STEPS += test-run-steps
