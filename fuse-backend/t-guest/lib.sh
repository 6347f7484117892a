# Host side of the guest tests (sourced by t-guest/*.t): boot a lab kernel
# with this build's fusecount, fusecount-ctl and libfuse3 copied in, and
# run one guest script from t-guest/, whose TAP comes back on stdout.
# Kernels, initramfs and guest/run belong to the other folders: their
# helpers come from guest/lib.sh, ours (the build lookup) from t/lib.sh.
. "$(dirname "$0")/../t/lib.sh"
. "$(dirname "$0")/../../guest/lib.sh"

# fc_guest KERNEL SCRIPT: run t-guest/SCRIPT in a guest of KERNEL
# (stock or patched); the script sees LAB_KERNEL and guest-lib.sh.
fc_guest() {
	need_bin fusecount fusecount-ctl
	lab_kernel "$1"
	libfuse=$(ldd "$BUILD/fusecount" | awk '/libfuse3/ { print $3 }')
	[ -n "$libfuse" ] || lab_skip "cannot find fusecount's libfuse3"
	printf 'LAB_KERNEL=%s\n. /lab/bin/guest-lib.sh\n. /lab/bin/%s\n' \
		"$1" "$2" >"$lab_tmp/cmd"
	lab_guest "$kernel" --append "$kernel_args" \
		--file "$BUILD/fusecount" --file "$BUILD/fusecount-ctl" \
		--file "$(readlink -f "$libfuse"):$libfuse" \
		--file "$T_DIR/guest-lib.sh" --file "$T_DIR/$2" \
		--script "$lab_tmp/cmd"
}
