#!/bin/sh
# INIT flags libfuse does not know: read from the request, added to the reply.
set -eu
. "$(dirname "$0")/lib.sh"
run_c_test init_test
