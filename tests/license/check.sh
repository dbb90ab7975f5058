#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks that the project is MIT-licensed throughout: LICENSE holds the MIT terms, and every source
# file carries "SPDX-License-Identifier: MIT" within its first 3 lines, in its language's comment.
#   tests/license/check.sh         check; name each file without the line; exit 1 if any
#   tests/license/check.sh --add   first put the line into every source file that lacks it, then check
#
# Source files, by name:
#   *.c *.h *.S *.ld *.lds                          /* SPDX-License-Identifier: MIT */
#   *.asm *.inc                                     ; SPDX-License-Identifier: MIT
#   *.sh *.bash *.mk Makefile *.py *.awk *.sed      # SPDX-License-Identifier: MIT
#   *.cfg.in, and any file without an extension that starts with #! (.ci/run)
# --add writes the line as the first line, or as the second after a #! line. Data files are not
# sources: fixtures (tests/fixtures/, tests/*/fixtures/), fuzzer seeds, .txt, .md, .log, fonts and
# everything under build/.
# The files are the ones git tracks plus the untracked ones it does not ignore (so a file added
# but not yet committed is caught); outside a git checkout (a tarball), every file under the tree.
# Ends with "N passed, N failed": one per file checked, and one for LICENSE.
set -u
export LC_ALL=C
cd "$(dirname "$0")/../.." || exit 1

add=false
case ${1-} in
--add) add=true ;;
"") ;;
*)
	echo "usage: $0 [--add]" >&2
	exit 2 ;;
esac

SPDX='SPDX-License-Identifier: MIT'

# The comment style of a source file: c, asm or hash; nothing for a file that is not a source.
kind_of() {
	local path=$1 base=${1##*/}
	case /$path in
	/build/* | /.git/* | */fixtures/* | */seeds/*) return ;;
	esac
	case $base in
	*.c | *.h | *.S | *.ld | *.lds) echo c ;;
	*.asm | *.inc) echo asm ;;
	*.sh | *.bash | *.mk | Makefile | GNUmakefile | *.py | *.awk | *.sed | *.cfg.in) echo hash ;;
	*.*) ;;
	*) [ "$(head -c 2 "$path")" = '#!' ] && echo hash ;;
	esac
}

spdx_line() {
	case $1 in
	c) echo "/* $SPDX */" ;;
	asm) echo "; $SPDX" ;;
	hash) echo "# $SPDX" ;;
	esac
}

has_spdx() {
	head -n 3 "$1" | grep -Eq "$SPDX([^-A-Za-z0-9.+]|\$)"
}

list_files() {
	if command -v git >/dev/null 2>&1 &&
		[ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
		git ls-files -z --cached --others --exclude-standard
	else
		find . \( -path ./build -o -path ./.git \) -prune -o -type f -print0 | sed -z 's|^\./||'
	fi
}

# Inserts the line into one file, keeping its mode (the file is rewritten in place).
add_spdx() {
	local file=$1 line=$2 tmp
	tmp=$(mktemp) || return 1
	if [ "$(head -c 2 "$file")" = '#!' ]; then
		{ head -n 1 "$file"; echo "$line"; tail -n +2 "$file"; } >"$tmp"
	else
		{ echo "$line"; cat "$file"; } >"$tmp"
	fi && cat "$tmp" >"$file"
	local status=$?
	rm -f "$tmp"
	return $status
}

pass=0 fail=0 added=0
declare -A counted=()
while IFS= read -r -d '' file; do
	[ -f "$file" ] && [ ! -L "$file" ] || continue    # deleted but still tracked, or a link
	kind=$(kind_of "$file")
	[ -n "$kind" ] || continue
	if ! has_spdx "$file" && $add; then
		if add_spdx "$file" "$(spdx_line "$kind")"; then
			echo "added: $file: $(spdx_line "$kind")"
			added=$((added + 1))
		fi
	fi
	if has_spdx "$file"; then
		pass=$((pass + 1))
		counted[$kind]=$((${counted[$kind]-0} + 1))
	else
		echo "FAIL: $file: no \"$SPDX\" in its first 3 lines (add it: $(spdx_line "$kind"))"
		fail=$((fail + 1))
	fi
done < <(list_files)
$add && echo "added the line to $added files"
if [ "$fail" -ne 0 ]; then
	echo "$fail files without the line: tests/license/check.sh --add puts it in"
fi
echo "license: $pass source files carry the line (C style ${counted[c]-0}, asm ${counted[asm]-0}," \
	"# style ${counted[hash]-0})"

# LICENSE: the MIT License, word for word apart from the copyright line and line breaks.
mit_terms='Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.'
words() { tr -s ' \t\n' '   ' | sed 's/^ //; s/ $//'; }
if [ ! -f LICENSE ]; then
	echo "FAIL: LICENSE: missing; it must hold the MIT License"
	fail=$((fail + 1))
elif [ "$(head -n 1 LICENSE)" != "MIT License" ]; then
	echo "FAIL: LICENSE: its first line is not \"MIT License\""
	fail=$((fail + 1))
elif ! grep -Eq '^Copyright \(c\) [0-9]{4}(-[0-9]{4})? [^ ]' LICENSE; then
	echo "FAIL: LICENSE: no \"Copyright (c) YEAR HOLDERS\" line"
	fail=$((fail + 1))
elif [ "$(tail -n +2 LICENSE | grep -v '^Copyright (c) ' | words)" != "$(words <<<"$mit_terms")" ]; then
	echo "FAIL: LICENSE: the text after the copyright line is not the MIT License's terms"
	fail=$((fail + 1))
else
	pass=$((pass + 1))
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
