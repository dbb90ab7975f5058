#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Prints every measured figure that a document carries and the report does not, one a line as
# FILE:LINE: FIGURE, and exits 1 if there is one. The rule (tests/README.md, "Figures in the
# documents"): a measured figure is
#   - a number followed by a unit of measurement (UNITS below: "123 instructions", "45 s", "3%");
#   - a count in KTAP's or the runner's form: "pass:283", "total:292", a plan line "1..41";
#   - any number in the body of a measurement table: a Markdown table whose header row names a
#     measured quantity (TABLE_HEADER below: instructions, cycles, text/data/bss ...).
# A figure passes when the report has it (the same text; a table's number as a whole word) or
# when ALLOW lists it ("FIGURE  # why": a number that is not a measurement, such as the size of
# a page).
#   tests/report/check-figures.sh REPORT ALLOW FILE...
set -u
report=$1 allow=$2
shift 2
[ -r "$report" ] || { echo "check-figures: no report $report (make report)" >&2; exit 2; }
[ -r "$allow" ] || { echo "check-figures: no allow-list $allow" >&2; exit 2; }

UNITS='instructions?|cycles?|bytes|KiB|kB|%|passed|failed|skipped|tests|cases|suites|seconds|s|min|minutes|ms|ns|us|pages|operations|names|symbols|million'
TABLE_HEADER='instructions|cycles|pairs|ratio|text.*data.*bss|seconds|passed'

# figures FILE: "LINE<tab>FIGURE" for every measured figure in FILE.
figures() {
	awk -v units="$UNITS" -v header="$TABLE_HEADER" '
	# each MATCHED TEXT: prints every piece of TEXT that matches RE (mawk has no gsub callback).
	function each(text, re,    out) {
		while (match(text, re)) {
			print NR "\t" substr(text, RSTART, RLENGTH)
			text = substr(text, RSTART + RLENGTH)
		}
	}
	function unit_figures(line,    re, m) {
		re = "(^|[^0-9A-Za-z_.:/x^-])[0-9]+([.,][0-9]+)*[ -]?(" units ")([^A-Za-z0-9]|$)"
		while (match(line, re)) {
			m = substr(line, RSTART, RLENGTH)
			line = substr(line, RSTART + RLENGTH - 1)
			sub(/^[^0-9]/, "", m); sub(/[^A-Za-z0-9%]$/, "", m); sub(/-/, " ", m)
			print NR "\t" m
		}
	}
	{ line = $0 }
	# Tables: the header row decides whether the rows below it are measurements.
	/^ *\|/ {
		if (!in_table) { in_table = 1; measured = (tolower(line) ~ header); next }
		if (line ~ /^ *\| *:?-+/) next
		if (measured) { each(line, "[0-9]+(\\.[0-9]+)?"); next }
	}
	!/^ *\|/ { in_table = 0 }
	{ unit_figures(line); each(line, "(pass|fail|skip|total):[0-9]+") }
	/^ *1\.\.[0-9]+ *$/ { sub(/^ */, "", line); sub(/ *$/, "", line); print NR "\t" line }
	' "$1"
}

# allowed FIGURE: the allow-list names it.
allowed_list=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$allow")
allowed() { grep -qxF -- "$1" <<<"$allowed_list"; }

# in_report FIGURE: the report has it; a bare number as a whole word.
report_text=$(tr -s ' ' <"$report")
in_report() {
	case $1 in
	*[!0-9.]*) grep -qF -- "$1" <<<"$report_text" ;;
	*) grep -qwF -- "$1" <<<"$report_text" ;;
	esac
}

status=0
for f in "$@"; do
	while IFS=$'\t' read -r line figure; do
		allowed "$figure" || in_report "$figure" || { echo "$f:$line: $figure"; status=1; }
	done < <(figures "$f")
done
exit $status
