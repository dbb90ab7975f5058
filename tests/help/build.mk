# SPDX-License-Identifier: MIT
# tests/help/: `make help` names every target and variable users have, and nothing else.
.PHONY: test-help
test-help:
	@tests/help/check.sh
TEST_STEPS += test-help
