#!/bin/sh
# stats --json's cost over the whole grid (every block of every launch traced): a sum of n elements
# needs n - 1 adds, so every version that sums them all (its result is the double reference) counts
# at least n - 1, whatever its own addressing adds on top (the lanes of an unrolled warp that add
# what no one reads). n - 1 is the definition's, not the cost table's.
ws="$1"
command -v python3 >/dev/null 2>&1 || { echo "FAIL: python3 is needed for this test"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=65536
fail=0
versions=$("$ws" list | awk '/^[a-z]/ {print $1}')
[ -n "$versions" ] || { echo "FAIL: warpscope list names no version"; exit 1; }
for v in $versions; do
    # a version that breaks the sum (v4-novolatile) exits 1 and still prints its JSON
    "$ws" stats --version "$v" --n $n --blocks-traced 1000000 --json >"$tmp/$v.json" 2>"$tmp/err" ||
        grep -q "WRONG RESULT" "$tmp/err" || { echo "FAIL: stats --version $v: $(cat "$tmp/err")"; fail=1; continue; }
    python3 - "$tmp/$v.json" "$v" $n <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1])); v = sys.argv[2]; n = int(sys.argv[3]); c = d["cost"]
if not c["complete"]:
    print("FAIL: %s: %d of %d blocks traced" % (v, c["blocks_traced"], c["blocks"])); sys.exit(1)
if d["result"] != d["reference"]:
    print("%s: result %s is not the sum %s (a broken version): its adds are not held to n - 1" % (v, d["result"], d["reference"])); sys.exit(0)
if c["adds"] < n - 1:
    print("FAIL: %s: cost.adds %d, fewer than the n - 1 = %d adds any sum of %d elements needs" % (v, c["adds"], n - 1, n)); sys.exit(1)
print("%s: %d adds >= %d" % (v, c["adds"], n - 1))
PY
done
[ $fail -eq 0 ] && echo "PASS: cost_should_count_every_add_of_the_grid"
exit $fail
