# statx lab: the top-level Makefile only ties the parts together; each
# folder builds and tests itself (see its README).

LAB_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/statx-lab
BUILD ?= $(CURDIR)/build
PATCHES ?= kernel/patches
PATCHES_6_12 ?= kernel/patches-6.12
# Kernel versions built and tested: both by default, or one
# (make check KVERS=6.12).
KVERS ?= 6.1 6.12
ifneq ($(filter-out 6.1 6.12,$(KVERS))$(if $(strip $(KVERS)),,none),)
$(error KVERS=$(KVERS): want 6.1, 6.12 or both)
endif
KERNELS := $(LAB_CACHE)/kernels
STOCK_KERNEL := $(KERNELS)/stock/bzImage
PATCHED_KERNEL := $(KERNELS)/patched/bzImage
KDIR ?= $(KERNELS)/patched/src
LAB_INITRD := $(BUILD)/guest/initramfs.cpio
QUICK ?=

# $(call q,PATH): PATH quoted for the shell. Paths from the user or the
# environment (a checkout in "/x/my lab", LAB_CACHE, BUILD, A, B) may
# hold spaces and shell characters: recipes quote every one.
q = '$(subst ','\'',$(1))'

export LAB_CACHE BUILD KDIR STOCK_KERNEL PATCHED_KERNEL LAB_INITRD LAB_KVERS

# Five test files at a time on a 2-core machine: the guests of many
# tests mostly wait (attribute timeouts, netem, boots of a pair), so more
# files fill the cores they leave. Counts that rely on cached attributes
# are measured on mounts whose timeouts a host stall of seconds cannot
# reach (nfs_rt_test, nfs-lab/t-guest/rt.sh and repeat.t), and
# kernel/t-guest/steal.sh checks the warm FORCE_SYNC counts on a guest
# that is descheduled often. Which tests go alone or one after another:
# testrules.yml.
TEST_JOBS ?= 5
PROVE := prove --timer --failures -j$(TEST_JOBS)
# Every folder's tests by layout: t/ the host's (no QEMU), t-guest/ those
# that boot guests. The guest tests over the kernel axis run the kernels
# of lib/kernels.list whose version is in LAB_KVERS (guest/lib.sh's
# lab_table).
HOST_TESTS := $(wildcard */t)
GUEST_TESTS := $(wildcard */t-guest)
LAB_KVERS := $(KVERS)
# libFuzzer time per fuzzer in make check (fuse-backend/t/fuzz.t)
FUZZ_SECONDS ?= 20
export FUZZ_SECONDS

.PHONY: all deps kernel kernel-ahead kernel-6.1 kernel-6.12 kernel-stock \
	kernel-patched kernel-stock-6.12 kernel-patched-6.12 userspace guest \
	check check-host check-guest check-kernel check-fuse check-nfs \
	fuzz bench-host lab clean distclean

all: kernel guest

deps:
	@sh scripts/deps.sh

# While the first kernel compiles, the trees of the others are unpacked,
# patched and configured beside it (kernel-ahead): xz, git and kconfig
# run on one core, the compiler leaves little to the other.
kernel:
	@$(MAKE) -s kernel-ahead & ahead=$$!; \
	$(MAKE) -s $(addprefix kernel-,$(KVERS)); rc=$$?; wait $$ahead; exit $$rc

# The first build unpacks its own tree. The 6.12 tree first: its unpack
# runs beside the 6.1 one (xz and git add each keep one core busy), not
# beside the compiler. Then in the order the builds need them. A failure
# here is the build's too, which reports it again when it gets there;
# these go on to the next.
kernel-ahead:
	$(if $(filter 6.1,$(KVERS)),$(if $(filter 6.12,$(KVERS)),@KVER=6.12 kernel/build.sh --prepare stock-6.12 || :))
	$(if $(filter 6.1,$(KVERS)),@kernel/build.sh --prepare patched $(call q,$(PATCHES)) || :)
	$(if $(filter 6.12,$(KVERS)),@KVER=6.12 kernel/build.sh --prepare patched-6.12 $(call q,$(PATCHES_6_12)) || :)

# One version's kernels one after another: the patched build starts
# from the stock one. Not the two versions side by side: on 2 cores two
# compilers share them and neither build ends sooner than in turn.
kernel-6.1:
	@$(MAKE) -s kernel-stock
	@$(MAKE) -s kernel-patched

kernel-6.12:
	@$(MAKE) -s kernel-stock-6.12
	@$(MAKE) -s kernel-patched-6.12

kernel-stock:
	@kernel/build.sh stock >/dev/null

kernel-patched:
	@kernel/build.sh patched $(call q,$(PATCHES)) >/dev/null

kernel-stock-6.12:
	@KVER=6.12 kernel/build.sh stock-6.12 >/dev/null

kernel-patched-6.12:
	@KVER=6.12 kernel/build.sh patched-6.12 $(call q,$(PATCHES_6_12)) >/dev/null

# Userspace needs the patched tree: the selftest harness and the FUSE uapi.
# Each part compiles with JOBS jobs (kernel/build.sh's too), unless make
# was given -j: then they share its job slots.
JOBS ?= $(shell nproc)
sub_j = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(JOBS))
#
# One build at a time in a build folder: two make lab at once in one
# checkout would write the same objects and binaries side by side. The
# second waits for the first's lock, then finds them up to date.
build_lock = mkdir -p -- $(call q,$(BUILD)) && flock $(call q,$(BUILD)/.build.lock)
#
# A file system's lane launcher goes in $(BUILD)/lanes, where bench/lab
# finds it (bench names no folder above it): nfs-lab/run for NFS.
userspace: kernel-patched
	@$(build_lock) sh -ec '$(MAKE) -s $(sub_j) -C bench; \
		$(MAKE) -s $(sub_j) -C fuse-backend; \
		$(MAKE) -s $(sub_j) -C nfs-lab; \
		$(MAKE) -s $(sub_j) -C guest tests'
	@scripts/lane.sh nfs $(call q,$(CURDIR)/nfs-lab/run) $(call q,$(BUILD)/lanes)

# What every guest carries of ours, below BUILD (guest/ knows no other
# folder): those that are built.
GUEST_BINS := bench/statx-probe bench/lsx bench/fusebench \
	fuse-backend/fusecount fuse-backend/fusecount-ctl
guest: userspace
	@$(build_lock) $(MAKE) -s $(sub_j) -C guest initramfs LAB_BINS='$(GUEST_BINS)'

check: deps
	@$(MAKE) -s kernel guest
	@$(PROVE) $(HOST_TESTS) $(GUEST_TESTS)

check-host: deps
	@$(MAKE) -s userspace
	@$(PROVE) $(HOST_TESTS)

check-guest: deps
	@$(MAKE) -s kernel guest
	@$(PROVE) guest/t guest/t-guest

check-kernel: deps
	@$(MAKE) -s kernel guest
	@$(PROVE) guest/t guest/t-guest kernel/t kernel/t-guest

check-fuse: deps
	@$(MAKE) -s kernel guest
	@$(PROVE) fuse-backend/t fuse-backend/t-guest

check-nfs: deps
	@$(MAKE) -s kernel guest
	@$(PROVE) nfs-lab/t nfs-lab/t-guest

fuzz: deps
	@$(MAKE) -s -C fuse-backend fuzz

# Figures of this host, not of the lab, so not in make check: native
# code's slowdown right after a wait (bench/coldcache) and a guest's
# boot per launcher candidate, BOOT_ROUNDS times (guest/bootbench).
BOOT_ROUNDS ?= 10
bench-host: deps
	@$(MAKE) -s kernel guest
	@$(call q,$(BUILD))/bench/coldcache
	@guest/bootbench --rounds $(BOOT_ROUNDS) guest/bootbench.candidates

# make lab runs every kernel of lib/kernels.list (QUICK=1: those
# without extra arguments); KVERS=6.1 or 6.12 on the command line runs
# the kernels of that version (lib/kernels.list's KVER column) only.
lab_vkernels = $(shell lab_lib=lib && . lib/kernels.sh && \
	lab_kernels_of 'stock patched $(if $(QUICK),,optin)' '$(KVERS)')
lab_kernels = $(if $(filter command line environment,$(origin KVERS)),\
	--kernels $(subst $(eval) ,$(comma),$(strip $(lab_vkernels))))
comma := ,

lab: deps
	@$(MAKE) -s kernel guest
	@bench/lab $(if $(QUICK),--quick) $(lab_kernels)

clean:
	rm -rf -- $(call q,$(BUILD))

# Also drop the kernel cache (unpacked trees and builds).
distclean: clean
	rm -rf -- $(call q,$(LAB_CACHE))

# What changed between two lab runs: make lab-compare A=results/x B=results/y
.PHONY: lab-compare
lab-compare:
	@[ -n $(call q,$(A)) ] && [ -n $(call q,$(B)) ] || \
		{ echo "lab-compare: give two runs, A=results/x B=results/y" >&2; exit 2; }
	@bench/compare $(call q,$(A)) $(call q,$(B))
