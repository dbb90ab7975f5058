#!/bin/sh
# SPDX-License-Identifier: MIT
# require-lines.sh LOG LINE...: the serial log LOG (lines end in CR LF) has each LINE as a whole
# line. Names the first one it lacks and fails.
log=$1
shift
for line in "$@"; do
	tr -d '\r' <"$log" | grep -qxF -- "$line" || { echo "$log: no line \"$line\""; exit 1; }
done
