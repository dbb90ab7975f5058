#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Keeps `make help` true: every target the READMEs tell users to run and every .PHONY target is
# in it, every target it names exists, and every variable it names is one the makefiles read
# (and every `VAR ?= default` of theirs is in it). Ends with "N passed, N failed".
set -u
help=$(make --no-print-directory help) || { echo "make help failed"; echo "0 passed, 1 failed"; exit 1; }
db=$(make --no-print-directory -pRrq help 2>/dev/null)
makefiles=$(ls Makefile ./*/build.mk ./*/*/build.mk ./*/*.mk 2>/dev/null | sort -u)

. "$(dirname "$0")/../tap.sh"

# The words of make help's target lines and its list of steps.
help_targets=$( { sed -n '/^Targets:/,/^$/p' <<<"$help" | awk '/^  [a-z]/ { print $1 } /^   +fuzz-/ { print }';
	sed -n '/^Steps of make test/,$p' <<<"$help" | tail -n +2; } | tr ' ' '\n' | grep . | sort -u)
in_help() {   # in_help TARGET: TARGET (NAME standing for any name) is named in make help
	local re=^${1//NAME/[a-z0-9]+}\$
	grep -qE "$re" <<<"$help_targets"
}

# Targets the READMEs tell users to run: "    make TARGET" lines and `make TARGET` in the text.
readme_targets=$( { grep -hE '^    make ' README.md ./*/README.md;
	grep -hoE '`make [^`]*`' README.md ./*/README.md | tr -d '`'; } |
	awk '{ for (i = 2; i <= NF; i++) if ($i !~ /=/ && $i !~ /^-/) { print $i; break } }' | sort -u)
missing=""
for t in $readme_targets; do in_help "$t" || missing="$missing $t"; done
check "every target the READMEs name is in make help ($(wc -w <<<"$readme_targets") targets)" \
	"$([ -z "$missing" ]; echo $?)" "missing:$missing"

# Every .PHONY target (the fuzz-NAME family counts as one entry).
phony=$(grep '^\.PHONY:' <<<"$db" | tr ' ' '\n' | grep -v -e '^\.PHONY:' -e '\$' | sort -u)
missing=""
for t in $phony; do in_help "$t" || in_help "${t/#fuzz-*/fuzz-NAME}" || missing="$missing $t"; done
check "every .PHONY target is in make help ($(wc -w <<<"$phony") targets)" "$([ -z "$missing" ]; echo $?)" \
	"missing:$missing"

# Every target make help names is one make knows.
unknown=""
for t in $help_targets; do
	[ "$t" = fuzz-NAME ] && continue
	grep -qE "^$t:" <<<"$db" || unknown="$unknown $t"
done
check "every target in make help exists" "$([ -z "$unknown" ]; echo $?)" "unknown:$unknown"

# Variables: those in help are read by a makefile or by a script make runs (YES= by
# boot/flash.sh); every "VAR ?= default" of the makefiles is in help.
help_vars=$(sed -n '/^Variables/,/^$/p' <<<"$help" | tail -n +2 | grep -oE '\b[A-Z_]{2,}=' | tr -d = | sort -u)
unread=""
for v in $help_vars; do
	# shellcheck disable=SC2086
	grep -qE "\\\$[({]$v[)}]|\\\$\{?$v\b" $makefiles boot/*.sh tests/*/*.sh || unread="$unread $v"
done
check "every variable in make help is read by the build ($(wc -w <<<"$help_vars") variables)" \
	"$([ -z "$unread" ]; echo $?)" "not read:$unread"
# IMG_DIR is where the images go, for the tests that build their own.
# shellcheck disable=SC2086
defaults=$(grep -hoE '^[A-Z_]+ *\?=' $makefiles | tr -d ' ?=' | grep -vx IMG_DIR | sort -u)
missing=""
for v in $defaults; do grep -qx "$v" <<<"$help_vars" || missing="$missing $v"; done
check "every variable with a default (?=) is in make help" "$([ -z "$missing" ]; echo $?)" "missing:$missing"

# Every build fragment is required: without it make stops, naming it, instead of building less
# (include $(wildcard ...) would skip it without a word). Each is removed in turn from a copy of
# the makefiles. Only tests/*/build.mk are optional: each is a kind of test that adds itself.
fragments=$(git ls-files '*.mk' | grep -vE '^tests/[^/]+/build\.mk$')
copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
git ls-files -z Makefile '*.mk' | xargs -0 cp --parents -t "$copy"
silent=""
for f in $fragments; do
	mv "$copy/$f" "$copy/$f.away"
	if out=$(make -C "$copy" --no-print-directory help 2>&1 >/dev/null) || ! grep -qF "$f" <<<"$out"; then
		silent="$silent $f"
	fi
	mv "$copy/$f.away" "$copy/$f"
done
check "a missing build fragment stops make, naming it ($(wc -w <<<"$fragments") fragments)" \
	"$([ -n "$fragments" ] && [ -z "$silent" ]; echo $?)" "make went on without:$silent"

tap_total
