#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs boot/flash.sh against fake device trees (sysfs, /dev, mount and swap tables under build/)
# and checks that it refuses every device it must refuse, with the right message, and writes and
# verifies a good stick (a file standing for the device). Ends with "N passed, N failed".
set -u

FLASH=${FLASH:-boot/flash.sh}
WORK=${WORK:-build/flash-test}
. "$(dirname "$0")/../tap.sh"

# new_tree: an empty machine under $T with an internal SATA disk sda holding / and /boot/efi.
new_tree() {
	T=$WORK/$1
	rm -rf "$T"
	mkdir -p "$T/sys/class/block" "$T/dev"
	add_disk sda "pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0" 0 "ATA" "Samsung SSD 860" 1000000000
	add_part sda 1
	add_part sda 2
	printf '%s\n' "$T/dev/sda2 / ext4 rw,relatime 0 0" "proc /proc proc rw 0 0" \
		"$T/dev/sda1 /boot/efi vfat rw 0 0" >"$T/mounts"
	printf 'Filename\tType\tSize\tUsed\tPriority\n' >"$T/swaps"
}

# add_disk NAME DEVPATH REMOVABLE VENDOR MODEL SECTORS: a whole disk at sys/devices/DEVPATH/block/NAME,
# with its device node (a file of SECTORS * 512 bytes, sparse).
add_disk() {
	local dir=$T/sys/devices/$2/block/$1
	mkdir -p "$dir/holders" "$dir/slaves" "$dir/device"
	echo "$3" >"$dir/removable"
	echo "$6" >"$dir/size"
	printf '%-8s\n' "$4" >"$dir/device/vendor"
	printf '%-16s\n' "$5" >"$dir/device/model"
	ln -s "../../devices/$2/block/$1" "$T/sys/class/block/$1"
	truncate -s $(($6 * 512)) "$T/dev/$1"
}

# add_part DISK N: partition DISKN of DISK.
add_part() {
	local disk dir
	disk=$(readlink -f "$T/sys/class/block/$1")
	dir=$disk/$1$2
	mkdir -p "$dir/holders"
	echo "$2" >"$dir/partition"
	echo 2048 >"$dir/size"
	ln -s "$(realpath --relative-to="$T/sys/class/block" "$dir")" "$T/sys/class/block/$1$2"
	: >"$T/dev/$1$2"
}

# add_stick NAME [SECTORS]: a 16 GB-ish USB stick (or SECTORS big), removable, on xHCI.
add_stick() {
	add_disk "$1" "pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host6/target6:0:0/6:0:0:0" 1 \
		"SanDisk" "Cruzer Blade" "${2:-30031872}"
}

# run DEV [stdin]: runs the script on the tree; output in $OUT, status in $STATUS.
run() {
	OUT=$(FLASH_SYSFS=$T/sys FLASH_MOUNTS=$T/mounts FLASH_SWAPS=$T/swaps FLASH_DEV_ROOT=$T/dev \
		"$FLASH" "$IMG" "$1" 2>&1 <<<"${2:-}")
	STATUS=$?
}

# expect NAME STATUS TEXT: the last run exited with STATUS (0, or non-zero for "fail") and said TEXT.
expect() {
	local ok=0
	if [ "$2" = 0 ]; then [ "$STATUS" = 0 ] || ok=1; else [ "$STATUS" != 0 ] || ok=1; fi
	grep -qF -- "$3" <<<"$OUT" || ok=1
	check "$1" $ok "expected exit ${2/fail/non-zero} and \"$3\", got exit $STATUS:"
	[ $ok = 0 ] || sed 's/^/    /' <<<"$OUT"
}

# expect_untouched NAME FILE: FILE (a fake device) still holds only zeros.
expect_untouched() {
	cmp -s -n "$IMG_SIZE" "$2" /dev/zero
	check "$1" $? "the device was written to"
}

mkdir -p "$WORK"
IMG=$WORK/usb.img
head -c 3145728 /dev/urandom >"$IMG"
printf '%s' 'ktest=mm_* bench=off' >"$IMG.cmdline"   # as make usb records it, without a line end
IMG_SIZE=$(stat -c %s "$IMG")

new_tree fixed-disk
run "$T/dev/sda"
expect "a fixed disk is refused" fail "is not a removable disk"

new_tree removable-not-usb
add_disk sdc "pci0000:00/0000:00:17.0/ata3/host2/target2:0:0/2:0:0:0" 1 "ATA" "Hot-swap bay" 30031872
run "$T/dev/sdc"
expect "a removable disk that is not on USB is refused" fail "is not on USB"

new_tree partition
add_stick sdb
add_part sdb 1
run "$T/dev/sdb1"
expect "a partition is refused and the disk named" fail "is a partition of sdb, not a whole disk: give the disk, DEV=$T/dev/sdb"

new_tree mounted-stick
add_stick sdb
add_part sdb 1
echo "$T/dev/sdb1 /media/user/MY\\040STICK vfat rw 0 0" >>"$T/mounts"
run "$T/dev/sdb"
expect "a stick with a mounted partition is refused" fail "is mounted: $T/dev/sdb1 on /media/user/MY STICK"
expect_untouched "the mounted stick is left untouched" "$T/dev/sdb"

new_tree swap-stick
add_stick sdb
add_part sdb 2
printf '%s\tpartition\t1024\t0\t-2\n' "$T/dev/sdb2" >>"$T/swaps"
run "$T/dev/sdb"
expect "a stick used as swap is refused" fail "is in use as swap"

new_tree held-stick
add_stick sdb
add_part sdb 1
mkdir -p "$(readlink -f "$T/sys/class/block/sdb1")/holders/dm-0"
run "$T/dev/sdb"
expect "a stick held by the device mapper is refused" fail "sdb1 is held by dm-0"

new_tree root-disk
add_stick sdb
add_part sdb 1
add_part sdb 2
sed -i "s|^$T/dev/sda2 / |$T/dev/sdb2 / |" "$T/mounts"
run "$T/dev/sdb"
expect "the disk holding the root filesystem is refused" fail "holds the running system's root filesystem"

new_tree boot-disk
add_stick sdb
add_part sdb 1
echo "$T/dev/sdb1 /boot vfat rw 0 0" >>"$T/mounts"
run "$T/dev/sdb"
expect "the disk holding the boot filesystem is refused" fail "holds the running system's boot filesystem"

new_tree root-on-lvm
add_stick sdb
add_part sdb 1
mkdir -p "$T/sys/devices/virtual/block/dm-0/slaves" "$T/sys/devices/virtual/block/dm-0/holders"
echo 0 >"$T/sys/devices/virtual/block/dm-0/removable"
ln -s ../../devices/virtual/block/dm-0 "$T/sys/class/block/dm-0"
slaves=$T/sys/devices/virtual/block/dm-0/slaves
ln -s "$(realpath --relative-to="$slaves" "$(readlink -f "$T/sys/class/block/sdb1")")" "$slaves/sdb1"
: >"$T/dev/dm-0"
sed -i "s|^$T/dev/sda2 / |$T/dev/dm-0 / |" "$T/mounts"
run "$T/dev/sdb"
expect "a disk under the root filesystem's device mapper volume is refused" fail "holds the running system's root filesystem"

new_tree missing
run "$T/dev/sdz"
expect "a device that does not exist is refused" fail "does not exist"

new_tree not-block
run /dev/null
expect "a device node that is not a block device is refused" fail "is not a block device"

new_tree no-medium
add_stick sdb 0
run "$T/dev/sdb"
expect "a card reader without a card is refused" fail "has no medium"

new_tree too-small
add_stick sdb 4096
run "$T/dev/sdb"
expect "a stick smaller than the image is refused" fail "is smaller than the image"

new_tree not-confirmed
add_stick sdb 65536
run "$T/dev/sdb" "no"
expect "without YES=1 a stick is written only after \"yes\"" fail "not confirmed"
expect_untouched "an unconfirmed stick is left untouched" "$T/dev/sdb"

new_tree good-stick
add_stick sdb 65536
mkdir -p "$T/dev/disk/by-id"
ln -s ../../sdb "$T/dev/disk/by-id/usb-SanDisk_Cruzer_Blade-0:0"
run "$T/dev/disk/by-id/usb-SanDisk_Cruzer_Blade-0:0" "yes"
expect "a good stick is described before writing" 0 "SanDisk Cruzer Blade, 32.0 MiB"
expect "a good stick, named by a by-id link, is written and verified" 0 "flash: verified: sha256"
cmp -s -n "$IMG_SIZE" "$IMG" "$T/dev/sdb" && [ "$(stat -c %s "$T/dev/sdb")" = $((65536 * 512)) ]
check "the stick holds the image and keeps its size" $? "the stick does not hold the image, or its size changed"

new_tree yes-skips-question
add_stick sdb 65536
OUT=$(YES=1 FLASH_SYSFS=$T/sys FLASH_MOUNTS=$T/mounts FLASH_SWAPS=$T/swaps FLASH_DEV_ROOT=$T/dev \
	"$FLASH" "$IMG" "$T/dev/sdb" 2>&1 </dev/null)
STATUS=$?
expect "YES=1 writes without asking" 0 "flash: verified: sha256"

OUT=$(FLASH_SYSFS=$T/sys FLASH_DEV_ROOT=$T/dev "$FLASH" "$IMG" "" 2>&1)
STATUS=$?
expect "without DEV the usage lists the USB disks" fail "$T/dev/sdb: SanDisk Cruzer Blade"

OUT=$("$FLASH" "$WORK/no-such.img" /dev/null 2>&1)
STATUS=$?
expect "a missing image is refused, naming make usb" fail "not found: build it first with make usb"

# The command line: make flash writes the image as make usb built it, and a CMDLINE= given to
# make flash must be the one the image carries.
flash_cmdline() {   # flash_cmdline GIVEN CMDLINE: a good stick, YES=1, CMDLINE given or not
	new_tree "cmdline-$RANDOM"
	add_stick sdb 65536
	OUT=$(YES=1 FLASH_CMDLINE_GIVEN=$1 KERNEL_CMDLINE=$2 FLASH_SYSFS=$T/sys FLASH_MOUNTS=$T/mounts \
		FLASH_SWAPS=$T/swaps FLASH_DEV_ROOT=$T/dev "$FLASH" "$IMG" "$T/dev/sdb" 2>&1 </dev/null)
	STATUS=$?
}
flash_cmdline "" "something else"
expect "without CMDLINE= the image is written as built, its command line shown" 0 \
	'boots the kernel with the command line "ktest=mm_* bench=off"'
flash_cmdline 1 "ktest=mm_* bench=off"
expect "CMDLINE= equal to the image's: written" 0 "flash: verified: sha256"
flash_cmdline 1 "ktest=mm_*"
expect "CMDLINE= not the image's: refused, naming the make usb to run" fail \
	'was built with the command line "ktest=mm_* bench=off", not "ktest=mm_*": run make usb CMDLINE=ktest=mm_\* first'
expect_untouched "a stick refused for its command line is left untouched" "$T/dev/sdb"
flash_cmdline 1 ""
expect "an empty CMDLINE= given is compared too" fail 'not "": run make usb CMDLINE='"''"' first'
mv "$IMG.cmdline" "$IMG.saved"
flash_cmdline "" ""
expect "an image without a record of its command line is refused" fail "has no record of its command line"
mv "$IMG.saved" "$IMG.cmdline"

# Through make: flash never builds the image, whatever CMDLINE= says.
OUT=$(make --no-print-directory -n flash DEV=/dev/null CMDLINE=other-than-built 2>&1)
STATUS=$?
expect "make flash plans no build, only boot/flash.sh" 0 "boot/flash.sh build/usb.img"
! grep -qE 'mkusb|mkiso|cmdline.txt|^cp ' <<<"$OUT"
check "make flash CMDLINE=... would build nothing" $? "it would build: $OUT"

tap_total
