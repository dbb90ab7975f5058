# SPDX-License-Identifier: MIT
# tests/report/: the report of every measured figure (REPORT.md, written by make report) and
# test-doc-figures, which fails when a document carries a measured figure that the report does
# not (tests/README.md, "Figures in the documents").
REPORT := tests/report/REPORT.md

# make report: every section, or those SECTIONS= names (the others are kept as they are).
.PHONY: report
report:
	@tests/report/report.sh $(REPORT) $(B)/logs/report-sample.log '$(SAMPLE_MACHINE)' $(SECTIONS)

.PHONY: test-doc-figures
test-doc-figures:
	@tests/report/test.sh $(REPORT)
TEST_STEPS += test-doc-figures
