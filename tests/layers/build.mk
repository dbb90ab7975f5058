# SPDX-License-Identifier: MIT
# tests/layers/: the include graph is layered (boot -> kernel -> mm -> lib; inside mm/, the
# layers of mm/README.md) and has no cycle.
.PHONY: test-layers
test-layers:
	@tests/layers/check.sh
TEST_STEPS += test-layers
