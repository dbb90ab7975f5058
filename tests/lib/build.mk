# SPDX-License-Identifier: MIT
# tests/lib/: mm/ as a library (make lib, mm/lib.sh): built plain and with a prefix, linked into
# tests/port's example and, prefixed, into a program that has its own kmalloc (check.sh says what
# each check is). pkg-config comes from make deps (pkgconf).
.PHONY: test-lib
test-lib: | deps
	@CC=$(HOSTCC) tests/lib/check.sh $(B)/lib-test
TEST_STEPS += test-lib
