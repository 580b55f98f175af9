#!/bin/sh
# stats --json prints one JSON object with the documented keys, and analysing a capture directly
# or from its file gives the same numbers.
ws="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
"$ws" stats --version v1 --block 128 --json >"$tmp/a.json" || { echo "FAIL: stats --json"; exit 1; }
for key in version block n result reference phases totals active_threads idle_threads warp_instructions \
           divergent_warp_instructions bank_conflicts_load bank_conflicts_store simd_efficiency; do
    grep -q "\"$key\":" "$tmp/a.json" || { echo "FAIL: key $key missing"; fail=1; }
done
if command -v python3 >/dev/null 2>&1; then
    # block 128: phase 0 (load), 7 tree steps, the final write: 9 phases
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["block"]==128 and len(d["phases"])==9 and d["result"]==d["reference"], d' \
        "$tmp/a.json" || { echo "FAIL: stats --json content"; fail=1; }
fi
"$ws" capture --version v1 --block 128 -o "$tmp/t.json" 2>/dev/null
"$ws" stats "$tmp/t.json" --json >"$tmp/b.json"
cmp -s "$tmp/a.json" "$tmp/b.json" || { echo "FAIL: stats of a capture and of its file differ"; diff "$tmp/a.json" "$tmp/b.json" | head; fail=1; }
[ $fail -eq 0 ] && echo "cli_stats_json_should_carry_the_documented_keys: ok"
exit $fail
