#!/bin/sh
# stats --json prints one JSON object with the documented keys, and analysing a capture directly
# or from its file gives the same numbers.
ws="$1"
# the content checks read JSON with python3 (tools/setup-debian.sh installs it): none is skipped
command -v python3 >/dev/null 2>&1 || { echo "FAIL: python3 is needed for this test"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
"$ws" stats --version v1 --block 128 --json >"$tmp/a.json" || { echo "FAIL: stats --json"; exit 1; }
for key in version block n result reference tolerance result_ok phases totals active_threads idle_threads warp_instructions \
           divergent_warp_instructions bank_conflicts_load bank_conflicts_store simd_efficiency cost adds steps instructions_per_element; do
    grep -q "\"$key\":" "$tmp/a.json" || { echo "FAIL: key $key missing"; fail=1; }
done
# block 128: phase 0 (load), 7 tree steps, the final write: 9 phases
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["block"]==128 and len(d["phases"])==9 and d["result"]==d["reference"], d' \
    "$tmp/a.json" || { echo "FAIL: stats --json content"; fail=1; }
# cost: a block of 128 elements (v1, one per thread) is 127 adds in a tree of log2(128) = 7 levels
python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["cost"]; assert c["adds"]==128-1 and c["steps"]==7 and c["complete"] and c["elements"]==128 and c["instructions_per_element"]>0, c' \
    "$tmp/a.json" || { echo "FAIL: stats --json cost"; fail=1; }
# --all-blocks: each block's partial sum (the grid view's tiles); v2 over a ramp x[i] = i, block
# 64: block b sums i from 64 b to 64 b + 63, that is 4096 b + 2016
"$ws" stats --version v2 --block 64 --n 1024 --data ramp --blocks-traced 16 --all-blocks --json >"$tmp/p.json" ||
    { echo "FAIL: stats --all-blocks --json"; fail=1; }
python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["partials_all_blocks"]; assert p=={str(b): 4096*b+2016 for b in range(16)}, p' \
    "$tmp/p.json" || { echo "FAIL: stats --all-blocks partial sums"; fail=1; }
"$ws" capture --version v1 --block 128 -o "$tmp/t.json" 2>/dev/null
"$ws" stats "$tmp/t.json" --json >"$tmp/b.json"
cmp -s "$tmp/a.json" "$tmp/b.json" || { echo "FAIL: stats of a capture and of its file differ"; diff "$tmp/a.json" "$tmp/b.json" | head; fail=1; }
# strings from a trace file are escaped: a device name with a quote, a backslash and a tab still
# gives valid JSON that reads back to the same name
sed 's/"device": "CPU emulator"/"device": "CPU \\"emu\\" \\\\ \\t x"/' "$tmp/t.json" >"$tmp/q.json"
"$ws" stats "$tmp/q.json" --json >"$tmp/q.out" || { echo "FAIL: stats of a trace with quotes in its device name"; fail=1; }
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["device"]=="CPU \"emu\" \\ \t x", d["device"]; assert d["result_ok"] is True and d["tolerance"] > 0' \
    "$tmp/q.out" || { echo "FAIL: stats --json of a device name with quotes: $(head -c 300 "$tmp/q.out")"; fail=1; }
# a result off its reference is reported, and stats exits 1 (a finding, not a number)
sed 's/^"result": .*/"result": 1,/' "$tmp/t.json" >"$tmp/w.json"
"$ws" stats "$tmp/w.json" >/dev/null 2>"$tmp/w.err"
rc=$?
[ $rc -eq 1 ] && grep -q "WRONG RESULT: v1 computed 1, the double-precision reference is" "$tmp/w.err" ||
    { echo "FAIL: a wrong result: exit $rc, $(cat "$tmp/w.err")"; fail=1; }
# the schedule on a card: the figures the occupancy API gave on an H100 for this launch (8 blocks
# per SM of 132 SMs, 4096 blocks in 4 waves), and a GTX 1060's 10 SMs of 2048 threads
for c in "h100 132 8 1056 4 threads" "gtx1060 10 8 80 52 threads"; do
    set -- $c
    "$ws" stats --version v2 --n 2^20 --block 256 --card $1 --json >"$tmp/s.json" || { echo "FAIL: stats --card $1"; fail=1; }
    python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["schedule"]; a=sys.argv[2:];
assert (s["card"],s["sms"],s["blocks_per_sm"],s["resident_blocks"],s["waves"],s["limited_by"])==(a[0],int(a[1]),int(a[2]),int(a[3]),int(a[4]),a[5]), s' \
        "$tmp/s.json" "$@" || { echo "FAIL: the schedule on $1"; fail=1; }
done
# a GPU capture (assets/traces: v2, 2^20 elements, on an H100) records where and when each block
# ran; the occupancy API on that H100 gave 32, 8 and 2 blocks per SM for blocks of 64, 256 and 1024
for c in "64 32 4224 16384" "256 8 1056 4096" "1024 2 264 1024"; do
    set -- $c
    "$ws" stats "$(dirname "$0")/../assets/traces/v2-h100-b$1.wstrace" --json >"$tmp/g.json" || { echo "FAIL: stats of the GPU trace, block $1"; fail=1; }
    python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["schedule"]; o=s["observed"]; a=[int(x) for x in sys.argv[2:]];
assert s["card"]=="h100" and s["blocks_per_sm"]==a[0] and o["most_blocks_live_on_one_sm"]==a[0], s
assert o["sms_used"]==132 and o["blocks_started_before_first_ended"]==a[1] and o["blocks"]==a[2], o' "$tmp/g.json" "$2" "$3" "$4" ||
        { echo "FAIL: the observed schedule of the GPU trace, block $1"; fail=1; }
done
"$ws" stats --version v2 --card gtx1070 >/dev/null 2>"$tmp/c.err"
rc=$?
[ $rc -eq 2 ] && grep -q 'unknown card "gtx1070"; the cards are gtx1050ti, gtx1060' "$tmp/c.err" || { echo "FAIL: an unknown card: exit $rc, $(cat "$tmp/c.err")"; fail=1; }
[ $fail -eq 0 ] && echo "cli_stats_json_should_carry_the_documented_keys: ok"
exit $fail
