#!/bin/sh
# The judge checks a run's trace as a certificate and judges each exercise's idea: a file of every
# class that once got full marks without doing what its exercise teaches (tests/hostile/) misses the
# goal that says so, in its words; one file that cannot be measured stops nothing. The expected goal
# is named by what the class does wrong (a serial loop: the chain of adds; the host's sum: not
# verified), never by a number this code printed.
ws="$1"
root="$2"
h="$root/tests/hostile"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache" XDG_STATE_HOME="$tmp/state"
fail=0
# exercise:file:the goal that must be missed (a pattern of its checklist line)
for c in "01:serial_thread:a tree, not a loop.*: no" "03:serial_warp:a tree, not a loop.*: no" \
         "05:first_add_then_loop:a tree, not a loop.*: no" "06:one_load_in_flight:several loads in flight.*: no" \
         "07:dummy_shuffle:the shuffled values make the sum.*: no" "08:host_sums:the run checks out against the hidden input.*: no" \
         "08:host_sum_as_argument:the run checks out against the hidden input.*: no" "09:max_scan:a tree, not a loop.*: no" \
         "03:table_of_sums:the run checks out against the hidden input.*: no" "07:own_lane_shuffle:the shuffled values make the sum.*: no" \
         "08:scattered_scratch:the run checks out against the hidden input.*: no" "03:host_pass_barrier:no races, in any run: [1-9]" "08:ignored_ticket:the block that drew the last ticket combines.*: 0" "04:barriers_to_one:the last warp.s steps.*: no" "01:mirrored_sequential:v0.s pairs kept.*: no" "02:mirrored_sequential:v1.s pairs kept.*: no" \
         "08:no_fence_far:no races, in any run: [1-9]" "05:one_ulp_high:the sum is right, in every run: no .*whole numbers: exactly"; do
    ex=${c%%:*}; rest=${c#*:}; file=${rest%%:*}; want=${rest#*:}
    "$ws" exercise check "$ex" "$h/$file.cu" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc = 1 ] && grep -Eq "^  \[ \] $want" "$tmp/out" || { echo "FAIL: $file.cu (exercise $ex) is not refused by '$want': exit $rc"; cat "$tmp/out" "$tmp/err"; fail=1; }
done
# the host's sum is refused for what it is: no kernel made the result
"$ws" exercise check 8 "$h/host_sums.cu" 2>/dev/null | grep -q "could not be verified: no kernel stored the result" ||
    { echo "FAIL: the host's sum is not said to be no kernel's"; fail=1; }
# a file whose goal cannot be measured (no barrier: no phase 1) is judged goal by goal, and the
# files after it too; --json stays whole
"$ws" exercise check 1 "$h/no_barrier.cu" "$root/tests/exercises/01-v0-branch.solution.cu" --json >"$tmp/out.json" 2>"$tmp/err"
rc=$?
[ $rc = 1 ] || { echo "FAIL: a file that cannot be measured: exit $rc, not 1"; cat "$tmp/err"; fail=1; }
python3 - "$tmp/out.json" <<'PY' || { echo "FAIL: the report of a batch with a file that cannot be measured:"; cat "$tmp/out.json"; fail=1; }
import json, sys
d = json.load(open(sys.argv[1]))
bad, good = d["files"]
assert bad["ran"] and not bad["solved"], bad
assert any(not g["met"] and g["broken_at"] for g in bad["goals"]), bad
assert good["solved"], good
PY
[ $fail = 0 ] && echo "the judge refuses what misses the idea: ok"
exit $fail
