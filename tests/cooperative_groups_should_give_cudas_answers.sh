#!/bin/sh
# Each cooperative-groups call (tests/own/cooperative_groups_calls.cu, one block of 64 threads over
# in[i] = i) gives CUDA's answer: the expected values are computed here from CUDA's definitions of
# the calls (a tile is thread_rank / N, a shuffle reads a rank of the same tile or keeps its own
# value past the tile's end, a ballot's bit r is rank r, ...), not from warpscope.
ws="$1"
file="$2/tests/own/cooperative_groups_calls.cu"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache"
python3 - "$tmp/want" <<'PY' || exit 1
import sys
x = list(range(64))
def tile(t, n): return t // n * n                  # first thread of t's tile of n
def down(t, n, d): r = t % n; return x[tile(t, n) + r + d] if r + d < n else x[t]
def ballot(t, n, p): return sum(1 << r for r in range(n) if p(x[tile(t, n) + r]))
def coalesced(t, keep): return [l for l in range(tile(t, 32), tile(t, 32) + 32) if keep(l)]
g8 = coalesced(37, lambda l: l % 4 == 1)
g2 = coalesced(34, lambda l: l % 2 == 0)
r34 = g2.index(34)
want = {
    0: x[63] + 64,
    1: down(3, 32, 5),
    2: down(61, 16, 5),
    3: x[tile(40, 32) + 7],
    4: x[tile(20, 16) + ((20 % 16) ^ 9)],
    5: ballot(16, 16, lambda v: v % 3 == 0),
    6: 100 * any(v == 5 for v in x[32:64]) + 10 * any(v == 45 for v in x[32:64]) + all(v >= 32 for v in x[32:64]),
    7: (50 // 16) * 10 + 64 // 16,
    8: len(g8) * 10 + g8.index(37),
    9: sum(x[32:64]),
    10: max(x[0:16]),
    11: sum(x[0:32]),
    12: sum(x[32:64]) * 10000 + min(x[32:64]) * 100 + max(x[32:64]),
    13: (13 % 8) * 10 + 8,
    14: x[34 - 2] if 34 % 32 >= 2 else x[34],
    15: x[g2[r34 + 3]] * 100000 + sum(1 << r for r, l in enumerate(g2) if x[l] % 4 == 0),
}
with open(sys.argv[1], "w") as f:
    for k, v in want.items(): f.write(f"{k} {v}\n")
PY
fail=0
while read -r k v; do
    "$ws" stats --json --kernel "$file" --entry "cg_calls<<<1, 64>>>(in, out, $k)" --n 64 --data ramp >"$tmp/r.json" 2>"$tmp/err" || true
    got=$(python3 -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["result"]))' "$tmp/r.json" 2>/dev/null)
    [ "$got" = "$v" ] || { echo "FAIL: case $k: warpscope gave '$got', CUDA gives $v"; cat "$tmp/err"; fail=1; }
done <"$tmp/want"
[ $fail = 0 ] && echo "cooperative groups: 16 calls give CUDA's answers"
exit $fail
