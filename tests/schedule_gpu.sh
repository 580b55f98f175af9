#!/bin/sh
# The card as it ran a launch (label gpu): a GPU capture of v2 over 2^20 elements in blocks of 64,
# 256 and 1024 records every block's SM and times, and the blocks that started before the first
# one ended are the model's blocks at once on that card (SMs x blocks per SM: the occupancy API's
# figure), with every SM used. Skipped (77) without a GPU or a CUDA build.
ws="$1"
command -v python3 >/dev/null 2>&1 || { echo "FAIL: python3 is needed for this test"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for b in 64 256 1024; do
    out=$("$ws" stats --version v2 --n 2^20 --block $b --backend gpu --json 2>&1 >"$tmp/s.json"); rc=$?
    case "$out" in *"no usable CUDA device"*|*"has no CUDA"*) echo "no GPU: skipped"; exit 77;; esac
    [ $rc -eq 0 ] || { echo "FAIL: stats --backend gpu, block $b: exit $rc: $out"; fail=1; continue; }
    python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["schedule"]; o=s["observed"]
assert o is not None, "no runs recorded"
assert o["blocks"] == s["grid"], (o["blocks"], s["grid"])
assert o["sms_used"] == s["sms"], (o["sms_used"], s["sms"])
assert o["blocks_started_before_first_ended"] == s["resident_blocks"], (o, s["resident_blocks"])
assert o["most_blocks_live_on_one_sm"] >= s["blocks_per_sm"], (o, s["blocks_per_sm"])
assert s["registers"] is not None' "$tmp/s.json" || { echo "FAIL: the recorded schedule of v2 at block $b against the model"; fail=1; }
done
[ $fail -eq 0 ] && echo "schedule_gpu: ok"
exit $fail
