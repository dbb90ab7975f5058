# SPDX-License-Identifier: MIT
# tests/relink/: a source added or removed relinks the kernel and the host test binary, and
# nothing relinks when nothing changed (link_list in the top Makefile), in a copy of the tree.
.PHONY: test-relink
test-relink:
	@tests/relink/test.sh
TEST_STEPS += test-relink
