# SPDX-License-Identifier: GPL-2.0
# ext4 images for the guests' disks (POSIX sh; sourced: defines functions
# only).

# A fixed hash seed: ext4 lists a directory in the order of its names'
# hashes, and which entries a listing's first reply holds decides some
# counts (on 6.12, with a timeout of 5 s or less, a cold lsx --color of
# 1000 entries took 619 to 630 LOOKUPs from one mke2fs to the next).
LAB_EXT4_HASH_SEED=6c61622d-6861-7368-2d73-656564000000

# lab_mkext4 FILE SIZE [MKE2FS_OPTION...]: a fresh ext4 image of SIZE
# (64M...), 256-byte inodes, made without mounting it; mke2fs's status,
# its complaints on stderr
lab_mkext4() {
	lab_mkext4_f=$1 lab_mkext4_size=$2
	shift 2
	# an empty file of its own (a missing one makes mke2fs say so, even -q)
	rm -f "$lab_mkext4_f"
	: >"$lab_mkext4_f"
	mke2fs -q -F -t ext4 -I 256 -E hash_seed="$LAB_EXT4_HASH_SEED" "$@" \
		"$lab_mkext4_f" "$lab_mkext4_size"
}
