# SPDX-License-Identifier: MIT
# tests/report/: the report of every measured figure (REPORT.md, written by make report, defined
# in the Makefile) and test-doc-figures, which fails when a document carries a measured figure
# that the report does not (tests/README.md, "Figures in the documents").
.PHONY: test-doc-figures
test-doc-figures:
	@tests/report/test.sh $(REPORT)
TEST_STEPS += test-doc-figures
