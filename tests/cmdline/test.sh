#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The kernel command line must reach the kernel byte for byte and never run as a command: in
# make's recipes, in a shell, or in GRUB's script. Builds boot images in build/cmdline-test/ (not
# build/os.iso, which the QEMU matrix boots with an empty command line) through make, as
# `make CMDLINE=...` does, with hostile command lines, and boots them in QEMU with ktest=printk:
#   BIOS and UEFI from CD-ROM (GRUB), BIOS and UEFI from the USB stick (GRUB), UEFI from the USB
#   stick with the direct loader, whose command line also has ' " and \ (GRUB cannot pass them);
# and checks that the build refuses what GRUB cannot pass and what is not printable ASCII.
# Each boot must pass its self-tests, print "Command line: " followed by exactly the bytes given,
# and show no sign of an injected command. Ends with "N passed, N failed".
#   MAKE=make tests/cmdline/test.sh
set -u
dir=build/cmdline-test
make_cmd=${MAKE:-make}
pass=0 fail=0

# What GRUB can pass: runs of spaces, leading and trailing ones, and every character its script or
# a shell would act on. If anything ran, it printed INJECTED alone or created a file in $dir.
grub_line='  ktest=printk  $HOME ${HOME} $(shell touch '$dir'/ran-make) `touch '$dir'/ran-shell`'
grub_line+=' ;echo INJECTED; #x {y} |z &w && || * ? [a] <b> >c $$ %% @ ~ ! ^ =  '
# The direct loader passes ' " and \ too (this one is given on make's command line, where make
# would drop leading spaces: it has none).
loader_line='ktest=printk '"'"'; echo INJECTED; '"'"' "; echo INJECTED; " \'"'"' \" \\ a\b'
loader_line+=' $(shell touch '$dir'/ran-make) `touch '$dir'/ran-shell` $HOME  {x} #y  '

# A make that knows nothing of the make that started this script (CMDLINE only when given).
unset CMDLINE KERNEL_CMDLINE
sub_make() {
	env -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES -u MAKELEVEL "$make_cmd" --no-print-directory "$@"
}

result() { # NAME OK? MESSAGE
	if [ "$2" = 0 ]; then
		pass=$((pass + 1))
		echo "ok      $1${3:+: $3}"
	else
		fail=$((fail + 1))
		echo "FAILED  $1${3:+: $3}"
	fi
}

# build NAME LOG make-arguments...: one build that must succeed.
build() {
	local name=$1 log=$2
	shift 2
	if "$@" >"$log" 2>&1; then
		result "build $name" 0
	else
		result "build $name" 1 "see $log"
		sed 's/^/    | /' "$log" | tail -n 15
	fi
}

# refused NAME WANT make-arguments...: a build that must fail, saying WANT.
refused() {
	local name=$1 want=$2 log=$dir/logs/refused-$1.log
	shift 2
	if "$@" >"$log" 2>&1; then
		result "refuses $name" 1 "the build succeeded (log $log)"
	elif grep -q -- "$want" "$log"; then
		result "refuses $name" 0 "$(grep -m1 -o -- "$want.\{0,40\}" "$log")..."
	else
		result "refuses $name" 1 "it failed without saying \"$want\" (log $log)"
		sed 's/^/    | /' "$log" | tail -n 10
	fi
}

# boot NAME EXPECTED run.sh-arguments...: boots, then compares the kernel's "Command line: " line.
boot() {
	local name=$1 want=$2 log=$dir/logs/$1.log out=$dir/logs/$1.run start end got status ms
	shift 2
	start=$(date +%s%N)
	tests/qemu/run.sh --timeout 60 --mem 256M --log "$log" --cmdline-note "hostile command line" \
		"$@" >"$out" 2>&1
	status=$?
	end=$(date +%s%N)
	got=$(tr -d '\r' <"$log" | grep -a -m1 '^Command line: ')
	got=${got#Command line: }
	if [ "$status" -ne 0 ]; then
		result "boot $name" 1 "the run failed (log $log)"
		sed 's/^/    | /' "$out" | tail -n 15
	elif [ "$got" != "$want" ]; then
		result "boot $name" 1 "the kernel got [$got], not [$want]"
	elif tr -d '\r' <"$log" | grep -a INJECTED | grep -aqv 'echo INJECTED'; then
		result "boot $name" 1 "a command in the command line ran: $(grep -a -m1 INJECTED "$log")"
	else
		ms=$(((end - start) / 1000000))
		result "boot $name" 0 "$((ms / 1000)).$((ms % 1000 / 100)) s, every byte arrived"
	fi
}

rm -rf "$dir"
mkdir -p "$dir/logs"

CMDLINE=$grub_line build "GRUB images (CMDLINE from the environment)" "$dir/logs/build-grub.log" \
	sub_make IMG_DIR="$dir/grub" "$dir/grub/os.iso" "$dir/grub/usb-grub.img"
build "loader image (CMDLINE on make's command line)" "$dir/logs/build-loader.log" \
	sub_make IMG_DIR="$dir/loader" CMDLINE="$loader_line" "$dir/loader/usb-loader.img"
[ "$(cat "$dir/loader/cmdline.txt" 2>/dev/null)" = "$loader_line" ]
result "cmdline.txt holds the loader's command line, with no line end" $? ""

refused "' \" \\ for GRUB (CD-ROM)" "GRUB cannot pass" \
	sub_make IMG_DIR="$dir/refused" CMDLINE="$loader_line" "$dir/refused/os.iso"
refused "' \" \\ for GRUB (USB)" "GRUB cannot pass" \
	sub_make IMG_DIR="$dir/refused" CMDLINE="$loader_line" "$dir/refused/usb-grub.img"
refused "a tab" "not printable ASCII" \
	sub_make IMG_DIR="$dir/refused" CMDLINE=$'ktest=printk\tbench' "$dir/refused/usb-loader.img"
refused "a line end" "not printable ASCII" \
	sub_make IMG_DIR="$dir/refused" CMDLINE=$'ktest=printk\nbench' "$dir/refused/os.iso"

boot bios-cdrom "$grub_line" --firmware bios --medium cdrom --machine pc --image "$dir/grub/os.iso"
boot uefi-cdrom "$grub_line" --firmware uefi --medium cdrom --machine q35 --image "$dir/grub/os.iso"
boot bios-usb "$grub_line" --firmware bios --medium usb --machine pc --image "$dir/grub/usb-grub.img"
boot uefi-usb-grub "$grub_line" --firmware uefi --medium usb --machine q35 \
	--image "$dir/grub/usb-grub.img"
boot uefi-usb-loader "$loader_line" --firmware uefi --medium usb --machine q35 \
	--image "$dir/loader/usb-loader.img"

for f in ran-make ran-shell; do
	[ ! -e "$dir/$f" ]
	result "nothing ran while building ($f absent)" $? ""
done
echo "cmdline: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
