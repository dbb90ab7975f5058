# SPDX-License-Identifier: MIT
# tests/api/: mm/API.md, the API reference generated from the kernel-doc comments of the public
# headers (the list: tests/api/public_headers), and the check that keeps it complete and true.
# Both need python3, which deps-picture installs when it is missing.
.PHONY: api test-api
api: deps-picture
	@tests/api/api.py write .
test-api: deps-picture
	@tests/api/check.sh $(B)
TEST_STEPS += test-api
