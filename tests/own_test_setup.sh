# Sourced by the tests of a learner's own kernels (". tests/own_test_setup.sh" with the test's own
# arguments: the warpscope program and the source folder): ws, own (tests/own), a private folder
# tmp removed at exit and used as the build cache, fail=0; python3 must be there.
ws="$1"
own="$2/tests/own"
command -v python3 >/dev/null 2>&1 || { echo "FAIL: python3 is needed for this test"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache"
fail=0
