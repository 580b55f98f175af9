#!/bin/sh
# Blocks of any size from 1 to 1024 and 2D/3D blocks and grids (tests/own/any_block_shape.cu): a
# partial last warp's missing lanes do not exist (no event names them, barriers wait for the
# threads there are), and threads and blocks are numbered as CUDA linearises them, x fastest.
# References: the sum of n ones is n; a random-int input's sum is the double sum of the values the
# trace shows loaded; each load's element is the linear-id formula b * threads + 32 w + lane.
. "$(dirname "$0")/own_test_setup.sh"
k="$own/any_block_shape.cu"

# capture NAME 'bx, by, bz, gx, gy' N DATA [flags]: the trace in $tmp/NAME.json (and .wstrace)
capture() {
    name="$1" shape="$2" n="$3" data="$4"
    shift 4
    for ext in json wstrace; do
        "$ws" capture --kernel "$k" --entry "shaped(in, out, n, $shape)" --n "$n" --data "$data" "$@" -o "$tmp/$name.$ext" \
            >/dev/null 2>"$tmp/err" || { echo "FAIL: capture $name ($shape) as $ext"; cat "$tmp/err"; fail=1; }
    done
}

# check NAME THREADS_PER_BLOCK BLOCKS_TRACED ONES: from the JSON trace alone
check() {
    python3 - "$tmp/$1.json" "$2" "$3" "$4" <<'PY' || { echo "FAIL: $1"; fail=1; }
import json, sys
t = json.load(open(sys.argv[1]))
threads, traced, ones = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
full = (threads + 31) // 32
exists = lambda w: 0xffffffff if threads >= 32 * (w + 1) else (1 << (threads - 32 * w)) - 1
loaded = {}
warps_seen = set()
for e in t["events"]:
    w, m = e["w"], e["m"]
    assert w < full, ("warp outside the block", e)
    assert m & ~exists(w) == 0, ("a lane past the block", e)
    warps_seen.add(w)
    if e["k"] == "global_load" and e["g"] == 0:
        lanes = [l for l in range(32) if m >> l & 1]
        for l, a, v in zip(lanes, e["a"], e["v"]):
            assert a == e["b"] * threads + 32 * w + l, ("element not the linear id", e["b"], w, l, a)
            loaded[a] = v
assert warps_seen == set(range(full)), ("warps", sorted(warps_seen))
assert t["passes"][0]["block"] == threads
n = t["provenance"]["n"]
assert len(loaded) == min(n, traced * threads), ("elements loaded", len(loaded))
ref = float(n) if ones else sum(loaded.values())
assert t["result"] == ref, ("result", t["result"], "reference", ref)
# the barrier: every thread of each warp there is waits at it, and no other lane
bar = [e for e in t["events"] if e["k"] == "barrier" and e["b"] == 0]
assert sorted(e["w"] for e in bar) == list(range(full)) and all(e["m"] == exists(e["w"]) for e in bar), bar
PY
}

# a block of 33 sums 33 ones: warp 1 is lane 0 alone
capture b33 '33, 1, 1, 1, 1' 33 ones
check b33 33 1 1
python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))
w1 = [e for e in t["events"] if e["w"] == 1]
assert w1 and all(e["m"] == 1 for e in w1), w1
assert t["provenance"]["block_dim"] == [33, 1, 1] and t["passes"][0]["block_dim"] == [33, 1, 1]' "$tmp/b33.json" ||
    { echo "FAIL: a block of 33: warp 1 should be its lane 0 alone"; fail=1; }
# SIMD efficiency counts the lanes that exist: phase 0 (each thread loads and stores) is 100%
"$ws" stats --json --kernel "$k" --entry 'shaped(in, out, n, 33, 1, 1, 1, 1)' --n 33 --data ones >"$tmp/s33.json" 2>"$tmp/err" &&
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); p=d["phases"][0]; assert p["simd_efficiency"]==1.0 and p["idle_threads"]==0 and p["active_threads"]==33, p' \
        "$tmp/s33.json" || { echo "FAIL: a block of 33: SIMD efficiency and idle threads of phase 0"; cat "$tmp/err"; fail=1; }

# a block of 1 thread
capture b1 '1, 1, 1, 1, 1' 1 ones
check b1 1 1 1

# 1000 threads (a partial last warp of 8), 3 blocks, random-int data
capture b1000 '1000, 1, 1, 3, 1' 3000 random-int --blocks-traced 3
check b1000 1000 3 0

# 2D blocks of (16, 16) in a grid of (4, 2), every block traced; a 3D block of (4, 3, 5) = 60 threads in a grid of (2, 3)
capture b2d '16, 16, 1, 4, 2' 2048 random-int --blocks-traced 8
check b2d 256 8 0
python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["passes"][0]
assert p["grid_dim"] == [4, 2, 1] and p["block_dim"] == [16, 16, 1] and p["grid"] == 8, p' "$tmp/b2d.json" ||
    { echo "FAIL: the 2D launch's shape is not in the trace"; fail=1; }
capture b3d '4, 3, 5, 2, 3' 360 random-int --blocks-traced 6
check b3d 60 6 0

# the compact encoding holds the same trace: read back, it gives the JSON one's result and shape
for name in b33 b2d b3d; do
    "$ws" stats --json "$tmp/$name.wstrace" >"$tmp/c.json" 2>"$tmp/err" && "$ws" stats --json "$tmp/$name.json" >"$tmp/j.json" 2>>"$tmp/err" &&
        python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); assert a["result"]==b["result"] and a["totals"]==b["totals"], (a, b)' \
            "$tmp/c.json" "$tmp/j.json" || { echo "FAIL: $name: the compact trace reads differently"; cat "$tmp/err"; fail=1; }
done

# outside CUDA's limits, one line naming them
"$ws" stats --kernel "$k" --entry 'shaped(in, out, n, 1025, 1, 1, 1, 1)' --n 33 >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" != 0 ] && grep -q "invalid configuration argument" "$tmp/err" ||
    { echo "FAIL: a block of 1025 threads was not refused"; cat "$tmp/err"; fail=1; }
exit $fail
