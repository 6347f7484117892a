#!/bin/sh
# Install a file system's lane launcher where bench/lab finds it:
#   scripts/lane.sh NAME LAUNCHER DIR   writes DIR/NAME, which execs LAUNCHER
# (bench names no folder above it, so the top Makefile tells it where a
# lane's launcher is: nfs-lab/run for NFS).
set -eu
[ $# = 3 ] || { echo "usage: scripts/lane.sh NAME LAUNCHER DIR" >&2; exit 2; }
[ -x "$2" ] || { echo "scripts/lane.sh: $2 is not executable" >&2; exit 1; }
mkdir -p -- "$3"
# LAUNCHER in single quotes, its own single quotes written as '\''
q=$(printf '%s' "$2" | sed "s/'/'\\\\''/g")
printf "#!/bin/sh\nexec '%s' \"\$@\"\n" "$q" >"$3/$1.tmp"
chmod +x "$3/$1.tmp"
mv -f -- "$3/$1.tmp" "$3/$1"
