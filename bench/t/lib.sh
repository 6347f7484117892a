# Sourced by bench/t/*.t (after "here" is set): the lab's TAP helpers
# (lib/tap.sh: ok, is, skip, "exit $failed") and a private $tmp
# that goes at exit; a failing test shows the last lines of $tmp/err.
. "$here/../../lib/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
TAP_DIAG=$tmp/err
