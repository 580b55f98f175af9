#!/bin/sh
# The goals on a rung's idea (divergence, bank conflicts, sectors) are read in every block of every
# pass: a file that does the idea in block 0 only (tests/hostile/block0_*.cu, every other block as the
# rung before) misses the goal, and the checklist names the run, the pass and a block other than 0.
ws="$1"
root="$2"
h="$root/tests/hostile"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache" XDG_STATE_HOME="$tmp/state"
fail=0
# exercise:file:the goal that must be missed (a pattern of its checklist line)
for c in "01:block0_branch:divergent warp instructions" "02:block0_padding:bank conflicts" \
         "05:block0_first_add:the loads are coalesced" "09:block0_max:bank conflicts"; do
    ex=${c%%:*}; rest=${c#*:}; file=${rest%%:*}; want=${rest#*:}
    "$ws" exercise check "$ex" "$h/$file.cu" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc = 1 ] && grep -Eq "^  \[ \] $want.*first broken at n = [0-9]+, [a-z:0-9+]+, pass [0-9]+, block [1-9][0-9]*\)" "$tmp/out" ||
        { echo "FAIL: $file.cu (exercise $ex) is not refused by '$want' in a block past 0: exit $rc"; cat "$tmp/out" "$tmp/err"; fail=1; }
done
[ $fail = 0 ] && echo "the judge reads every block: ok"
exit $fail
