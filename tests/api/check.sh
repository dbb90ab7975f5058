#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make test-api: mm/API.md is what `make api` generates from the public headers (tests/api/
# public_headers), and every call they declare has a kernel-doc comment that matches it
# (tests/api/api.py). Then the check itself is checked: on copies of the headers broken on
# purpose, each kind of fault must make api.py fail and say so. Ends with "N passed, N failed".
#   tests/api/check.sh [BUILD_DIR]
set -u
build=${1:-build}/api
. "$(dirname "$0")/../tap.sh"

out=$(tests/api/api.py check .)
status=$?
echo "$out" | grep -v '^[0-9]* passed' | sed 's/^/  /'
check "the public headers are documented and mm/API.md is up to date" "$status" \
	"$(echo "$out" | grep -c '^api:') problems (make api regenerates mm/API.md)"

# broken NAME EXPECTED SCRIPT: a copy of the tree's headers and API.md, SCRIPT (perl -0pi over
# FILE) applied to FILE in it; api.py check must fail and print EXPECTED.
broken() {
	local name=$1 expected=$2 file=$3 script=$4 dir=$build/$1 got
	rm -rf "$dir" && mkdir -p "$dir/mm" "$dir/tests/api"
	cp mm/*.h mm/API.md "$dir/mm/" && cp tests/api/public_headers "$dir/tests/api/"
	perl -0pi -e "$script" "$dir/$file"
	if cmp -s "$file" "$dir/$file"; then
		check "broken copy '$name' fails the check" 1 "the change to $file did not apply"
		return
	fi
	got=$(tests/api/api.py check "$dir")
	if [ $? -ne 0 ] && grep -qF -- "$expected" <<<"$got"; then
		check "broken copy '$name' fails the check" 0 ""
	else
		check "broken copy '$name' fails the check" 1 "api.py did not fail with \"$expected\":
$got"
	fi
}

broken stale "differs from what make api generates" mm/API.md 's/^### kfree\(\)/### kfree() by hand/m'
broken undocumented "kmalloc() has no kernel-doc comment" mm/slab.h 's{/\*\*\n \* kmalloc\(\) - }{/*\n * kmalloc() - }'
broken undocumented-macro "kmalloc_obj() has no kernel-doc comment" mm/slab.h \
	's{(void \*kzalloc\(size_t size, gfp_t gfp\);\n)}{$1\n#define kmalloc_obj(x) kmalloc(sizeof(x), GFP_KERNEL)\n}'
broken wrong-arg "documented @args (size, flags) are not its parameters (size, gfp)" mm/slab.h \
	's{( \* kmalloc\(\) - .*?\n \* \@size:.*?\n \* \@)gfp:}{$1flags:}s'
broken missing-arg "documented @args (p) are not its parameters (p, new_size, gfp)" mm/slab.h \
	's{( \* krealloc\(\) - [^\n]*\n \* \@p:[^\n]*\n) \* \@new_size:[^\n]*\n \* \@gfp:[^\n]*\n}{$1}s'
broken no-return "ksize(): returns size_t but has no Return: line" mm/slab.h \
	's{( \* ksize\(\) - .*?)\n \*\n \* Return:.*?\*/}{$1\n */}s'
broken other-name "alloc_pages(): its kernel-doc comment is for alloc_page()" mm/page_alloc.h \
	's{ \* alloc_pages\(\) - }{ * alloc_page() - }'
tap_total
