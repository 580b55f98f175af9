#!/bin/sh
# Every event the judge accepts comes from a site the front end found in the file: exercise 03's
# racing file that records its missing barrier through warpscope's own hook, at a line where its
# device code has no barrier (tests/hostile/forged_barrier.cu), is not believed, while the
# exercise's model solution still solves.
ws="$1"
root="$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache" XDG_STATE_HOME="$tmp/state"
fail=0
"$ws" exercise check 3 "$root/tests/hostile/forged_barrier.cu" >"$tmp/out" 2>"$tmp/err"
rc=$?
{ [ $rc != 0 ] && grep -q "an event from no site of the file: a barrier at line 2 " "$tmp/out" "$tmp/err" &&
  ! grep -q "goals met in [1-9]" "$tmp/out"; } ||
    { echo "FAIL: a barrier forged at line 2 is believed: exit $rc"; cat "$tmp/out" "$tmp/err"; fail=1; }
"$ws" exercise check 3 "$root/tests/exercises/03-missing-barrier.solution.cu" >"$tmp/out" 2>"$tmp/err" ||
    { echo "FAIL: the model solution of exercise 03 does not solve"; cat "$tmp/out" "$tmp/err"; fail=1; }
[ $fail = 0 ] && echo "events from no site of the file are refused: ok"
exit $fail
