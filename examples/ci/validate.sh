#!/usr/bin/env bash
# Pre-publish check of a library in CI: every playlist validated once, the findings written as SARIF (for
# code-scanning views) and as JUnit (for test-report views). The GitHub Actions and GitLab CI recipes beside
# this script call it; the tests run it too.
#
#   examples/ci/validate.sh LIBRARY OUT_DIR [validate options...]
#
# Exit status: skdpack validate's (0 clean, 1 errors found, 2 the tool could not do its job); both reports
# are written in every case but 2.
set -uo pipefail
library=${1:?usage: validate.sh LIBRARY OUT_DIR [options]}
out=${2:?usage: validate.sh LIBRARY OUT_DIR [options]}
shift 2
skdpack=${SKDPACK:-skdpack}
mkdir -p "$out"
"$skdpack" validate --no-progress --format sarif "$@" "$library" > "$out/skdpack.sarif"
status=$?
[ "$status" -le 1 ] || exit "$status"
"$skdpack" validate --no-progress --format junit "$@" "$library" > "$out/skdpack.junit.xml"
exit "$status"
