# SPDX-License-Identifier: MIT
# tests/api/: mm/API.md, the API reference generated from the kernel-doc comments of the public
# headers (the list: tests/api/public_headers), and the check that keeps it complete and true.
.PHONY: api test-api
api:
	@tests/api/api.py write .
test-api:
	@tests/api/check.sh $(B)
TEST_STEPS += test-api
