#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Reads the KTAP report in a kernel's serial log and says whether the run passed.
#   tests/qemu/ktap-check.sh [--exit-status N] LOG
#
# Prints every test case (suite/case: ok, not ok with its diagnostics, or skip), then each problem
# found, and ends with "N passed, N failed" counting cases. The run fails on: no "KTAP version 1",
# no plan, a "not ok", fewer results than planned (at the top level or in a suite), a crash report
# (a line starting with "EXCEPTION:" or "PANIC:", unless it follows "# expected exception" in the
# same test), a skipped case that does not say why, or no final "ktest: summary: N passed,
# N failed, N skipped" line (or one that disagrees with the results). Each missing case and each other problem counts as one failure.
#
# With --exit-status, QEMU's exit status is judged too: the kernel writes 0x10 (pass) or 0x11
# (fail) to isa-debug-exit, which makes QEMU exit with 33 or 35; anything else is a failure.
# Exits 0 when the run passed, 1 when it failed, 2 on a usage error. Needs only bash and awk.
set -u

usage() {
	echo "usage: $0 [--exit-status N] LOG" >&2
	exit 2
}

exit_status=""
while [ $# -gt 0 ]; do
	case $1 in
	--exit-status) [ $# -ge 2 ] || usage; exit_status=$2; shift 2 ;;
	-h|--help) usage ;;
	-*) echo "$0: unknown option $1" >&2; usage ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || usage
log=$1
if [ ! -r "$log" ]; then
	echo "$0: cannot read $log" >&2
	exit 2
fi

exec awk -v exit_status="$exit_status" -v log_name="$log" '
BEGIN { npass = 0; nfail = 0; nskip = 0; nproblems = 0; extra_failures = 0 }

function problem(msg, weight) {
	nproblems++
	problems[nproblems] = msg
	extra_failures += weight
}

# Indentation in steps of 4 spaces; -1 when it is not a multiple of 4.
function depth_of(s) {
	match(s, /^ */)
	return RLENGTH % 4 ? -1 : RLENGTH / 4
}

function suite_path(d,   i, p) {
	p = ""
	for (i = 1; i <= d; i++)
		p = p (name[i] != "" ? name[i] : "(unnamed)") "/"
	return p
}

function suite_name(d,   p) {
	p = suite_path(d)
	sub(/\/$/, "", p)
	return p
}

function open_block(d) {
	open[d] = 1
	planned[d] = 0
	plan[d] = 0
	count[d] = 0
	child_fail[d] = 0
	name[d] = ""
}

# Checks the results of the block at depth d against its plan; returns the missing count.
function close_block(d, at_eof,   missing, label) {
	open[d] = 0
	label = d == 0 ? "the run" : "suite " suite_name(d)
	if (!planned[d]) {
		problem(label ": no plan (1..N)", 1)
		return 0
	}
	missing = plan[d] - count[d]
	if (missing > 0 && at_eof)
		problem(label ": the log ends after " count[d] " of " plan[d] " results", d ? missing : 0)
	else if (missing > 0)
		problem(label ": " count[d] " of " plan[d] " planned results", d ? missing : 0)
	else if (missing < 0)
		problem(label ": " count[d] " results, more than the " plan[d] " planned", 1)
	return missing > 0 ? missing : 0
}

# "ok 3 name # SKIP reason" -> fields in r_ok, r_num, r_desc, r_skip, r_reason.
function parse_result(s,   rest, i) {
	sub(/^ */, "", s)
	r_ok = (substr(s, 1, 3) == "ok ")
	rest = r_ok ? substr(s, 4) : substr(s, 8)
	i = index(rest, " ")
	r_num = i ? substr(rest, 1, i - 1) + 0 : rest + 0
	r_desc = i ? substr(rest, i + 1) : ""
	r_skip = 0
	r_reason = ""
	i = index(r_desc, " # ")
	if (i) {
		if (toupper(substr(r_desc, i + 3, 4)) == "SKIP") {
			r_skip = 1
			r_reason = substr(r_desc, i + 8)
		}
		r_desc = substr(r_desc, 1, i - 1)
	}
	sub(/ +$/, "", r_desc)
}

function print_diags(   i) {
	for (i = 1; i <= ndiag; i++)
		print "          " diag[i]
}

function result(d, line,   missing, path) {
	parse_result(line)
	expected_exception = 0
	count[d]++
	if (r_num != count[d])
		problem(suite_path(d) r_desc ": result numbered " r_num ", expected " count[d], 1)
	if (open[d + 1]) {                      # the result of a suite at depth d + 1
		if (name[d + 1] == "")
			name[d + 1] = r_desc
		missing = close_block(d + 1, 0)
		path = suite_name(d + 1)
		if (r_skip)
			print "skip    " path " (" r_reason ")"
		else if (!r_ok && !child_fail[d + 1] && !missing) {
			print "not ok  " path " (the suite failed, none of its cases did)"
			print_diags()
			problem("suite " path ": not ok with no failed case", 1)
		} else if (r_ok && child_fail[d + 1])
			problem("suite " path ": ok although " child_fail[d + 1] " of its cases failed", 1)
		if (!r_ok)
			child_fail[d]++
	} else {                                # a test case
		path = suite_path(d) r_desc
		if (!r_ok) {
			print "not ok  " path
			print_diags()
			nfail++
			child_fail[d]++
		} else if (r_skip) {
			print "skip    " path (r_reason != "" ? " (" r_reason ")" : "")
			nskip++
			if (r_reason == "")
				problem(path ": skipped without saying why", 1)
		} else {
			print "ok      " path
			npass++
		}
	}
	ndiag = 0
}

{
	sub(/\r$/, "")
	gsub(/\033\[[0-9;?]*[A-Za-z]/, "")
	line = $0
}

# The crash report: the report and a few lines after it are shown.
line ~ /^[ \t]*(EXCEPTION|PANIC):/ {
	if (expected_exception)
		next
	if (crash_lines > 0) {      # the panic that ends an exception report belongs to it
		crash_lines--
		problems[crash_idx] = problems[crash_idx] "\n          " line
		next
	}
	problem("crash: " line, 1)
	crash_idx = nproblems
	crash_lines = 12
	next
}
crash_lines > 0 {
	crash_lines--
	problems[crash_idx] = problems[crash_idx] "\n          " line
}

line ~ /^ktest: summary: / {
	split(substr(line, 17), w, /[ ,]+/)
	if (w[2] == "passed" && w[4] == "failed" && w[6] == "skipped") {
		have_summary = 1
		sum_pass = w[1] + 0
		sum_fail = w[3] + 0
		sum_skip = w[5] + 0
	}
	next
}

line ~ /# expected exception/ { expected_exception = 1 }

!started && line !~ /^KTAP version 1[ \t]*$/ { next }

{ d = depth_of(line) }
d < 0 { next }

line ~ /^ *KTAP version 1[ \t]*$/ {
	if (d == 0 && started) {
		problem("a second top-level \"KTAP version 1\" at line " NR ": the kernel restarted?", 1)
		next
	}
	if (d > 0 && open[d]) {
		problem("suite " suite_name(d) " has no result line before the next suite starts", 1)
		close_block(d, 0)
	}
	started = 1
	open_block(d)
	ndiag = 0
	next
}
line ~ /^ *# Subtest: / {
	if (!open[d])
		open_block(d)
	name[d] = substr(line, 4 * d + 12)
	next
}
line ~ /^ *1\.\.[0-9]+/ {
	if (!open[d])
		open_block(d)
	if (planned[d])
		problem((d ? "suite " suite_name(d) : "the run") ": a second plan at line " NR, 1)
	planned[d] = 1
	plan[d] = substr(line, 4 * d + 4) + 0
	next
}
line ~ /^ *(not )?ok [0-9]+/ {
	if (!open[d])
		open_block(d)
	result(d, line)
	next
}
line ~ /^ *Bail out!/ {
	problem("bail out: " line, 1)
	next
}
line ~ /^ *# / && line !~ /^ *# ([^ ]+: )?Totals: / && line !~ /# expected exception/ {
	diag[++ndiag] = substr(line, 4 * d + 1)
	next
}

END {
	if (!started) {
		problem("no \"KTAP version 1\" line: the self-tests never started", 1)
	} else {
		for (d = 20; d >= 1; d--)
			if (open[d]) {
				close_block(d, 1)
				open_suite_at_eof = 1
			}
		if (!planned[0])
			problem("no top-level plan (1..N)", 1)
		else if (count[0] < plan[0])
			problem("only " count[0] " of " plan[0] " suites reported",
				plan[0] - count[0] - (open_suite_at_eof ? 1 : 0))
	}
	if (!have_summary)
		problem("no final summary line (\"ktest: summary: N passed, N failed, N skipped\")", 1)
	else if (sum_pass != npass || sum_fail != nfail)
		problem("the summary says " sum_pass " passed, " sum_fail " failed, but the results show " \
			npass " passed, " nfail " failed", 1)

	if (exit_status != "") {
		s = exit_status + 0
		if (s == 33 && (nfail || extra_failures))
			problem("QEMU exit status 33 says the kernel passed, but the log shows failures", 0)
		else if (s == 35 && !nfail && !extra_failures)
			problem("QEMU exit status 35: the kernel reported a failure", 1)
		else if (s == 124)
			problem("timed out: the kernel did not finish (QEMU killed by timeout, status 124)", 1)
		else if (s == 0)
			problem("QEMU exited with status 0 and no verdict: the guest reset or rebooted " \
				"(a triple fault, with -no-reboot)", 1)
		else if (s == 1)
			problem("QEMU exited with status 1: QEMU failed to start, or the kernel wrote 0 to " \
				"isa-debug-exit", 1)
		else if (s > 128)
			problem("QEMU was killed by signal " (s - 128) " (exit status " s ")", 1)
		else if (s != 33 && s != 35)
			problem("QEMU exit status " s " is neither 33 (pass) nor 35 (fail)", 1)
	}

	for (i = 1; i <= nproblems; i++)
		print "FAIL: " problems[i]
	failed = nfail + extra_failures
	if (nproblems && !failed)
		failed = 1
	print log_name ": " npass + nfail + nskip " cases: " npass " passed, " nfail " failed, " \
		nskip " skipped; " nproblems " problems"
	print npass " passed, " failed " failed"
	exit failed ? 1 : 0
}
' "$log"
