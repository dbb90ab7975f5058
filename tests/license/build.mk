# SPDX-License-Identifier: MIT
# tests/license/: every source file carries "SPDX-License-Identifier: MIT" and LICENSE is the MIT
# License (tests/license/check.sh; `tests/license/check.sh --add` puts the line into new files).
.PHONY: test-license
test-license:
	@tests/license/check.sh
TEST_STEPS += test-license
