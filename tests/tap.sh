# SPDX-License-Identifier: MIT
# Sourced by the shell tests: "check NAME STATUS DETAIL" prints "ok - NAME" when STATUS is 0, else
# "not ok - NAME: DETAIL", and counts; "tap_total" prints the last line, "N passed, N failed", and
# returns 1 when a check failed.
pass=0 fail=0

check() {   # check NAME STATUS DETAIL
	if [ "$2" = 0 ]; then
		echo "ok - $1"
		pass=$((pass + 1))
	else
		echo "not ok - $1: $3"
		fail=$((fail + 1))
	fi
}

tap_total() {
	echo "$pass passed, $fail failed"
	[ "$fail" = 0 ]
}
