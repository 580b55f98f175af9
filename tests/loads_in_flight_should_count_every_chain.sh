#!/bin/sh
# loads_in_flight() counts the loads of every independent chain a thread keeps, whichever floats
# hold them: the most input elements one thread loads in one turn, where a turn's loads are those
# no load's address or value feeds before they are all issued. Each file in tests/inflight/ is judged
# by an exercise of its own (exercise 06's launch: min(ceil(n / 2048), 1024) blocks of 256, the
# hidden sizes moved by up to a quarter either way, every block traced and verified) whose goal is
# loads_in_flight() equal to the count its addressing formula gives: K accumulators stepping K grids
# load min(K, ceil(n / grid)) elements in a thread's first turn; one sum in a float that is not the
# kernel's first, 1; four sums whose indices are each read from memory at the index before, 1. Then
# exercise 06 itself: four scalar sums solve it, one sum in a float the kernel declares second is
# refused for its loads in flight.
ws="$1"
root="$2"
command -v python3 >/dev/null 2>&1 || { echo "FAIL: python3 is needed for this test"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache" XDG_STATE_HOME="$tmp/state"
fail=0
data=$(dirname "$ws")/share/warpscope
[ -d "$data/include" ] || { echo "FAIL: no data folder beside $ws"; exit 1; }
mkdir -p "$tmp/data/lessons/exercises"
ln -s "$data/assets" "$tmp/data/assets"
ln -s "$data/include" "$tmp/data/include"
# file:accumulators K (0: the file's own count, given):size N
python3 - "$root" "$tmp/data/lessons/exercises" <<'PY' || { echo "FAIL: the exercises could not be written"; exit 1; }
import json, math, shutil, sys
root, out = sys.argv[1], sys.argv[2]
base = json.load(open(root + "/lessons/exercises/06-grid-stride.json"))

def first_turn(k, n):
    """the most elements one thread loads in its first turn: k sums stepping k grids"""
    grid = 256 * min(-(-n // 2048), 1024)
    return min(k, -(-n // grid))

# file, loads per turn (the file's chains: k independent sums, or 1 when each load waits for the one
# before), the listed size (the suite moves it by up to a quarter either way)
cases = [("two_accumulators", 2, 65536), ("four_accumulators", 4, 65536), ("hidden_accumulator", 1, 65536),
         ("chased_indices", 1, 4096)]
for num, (name, k, n) in enumerate(cases, 1):
    want = {first_turn(k, m) for m in range(n - n // 4, n + n // 4 + 1)}
    assert len(want) == 1, (name, want)  # the same count at every size the suite may draw
    want = want.pop()
    x = json.loads(json.dumps(base))
    x["id"] = "exercise-inflight-" + name.replace("_", "-")
    x["title"] = {"en": "loads in flight: " + name, "zh": "同时在途的加载：" + name}
    shutil.copy("%s/tests/inflight/%s.cu" % (root, name), "%s/%s.cu" % (out, name))
    e = x["exercise"]
    e["start"] = name + ".cu"
    e["runs"] = {"n": [n], "schedules": ["lockstep"]}
    e["capture"]["n"] = n
    e["goals"] = [
        {"say": {"en": "verified", "zh": "核对无误"}, "value": "verified()", "equals": 1, "every_run": True},
        {"say": {"en": "loads in flight %d" % want, "zh": "同时在途的加载 %d" % want}, "value": "loads_in_flight()", "equals": want,
         "every_run": True},
    ]
    json.dump(x, open("%s/%02d-%s.json" % (out, num, name.replace("_", "-")), "w"), ensure_ascii=False, indent=1)
PY
for k in 01 02 03 04; do
    j=$(ls "$tmp/data/lessons/exercises/$k"-*.json)
    f=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["exercise"]["start"])' "$j")
    WARPSCOPE_DATA="$tmp/data" "$ws" exercise check "$k" "$tmp/data/lessons/exercises/$f" >"$tmp/out" 2>&1 ||
        { echo "FAIL: $f does not have the loads in flight its addressing gives:"; cat "$tmp/out"; fail=1; }
done
# exercise 06: four scalar sums solve it; one sum in the second float is refused for its loads in flight
"$ws" exercise check 6 "$root/tests/inflight/four_accumulators.cu" >"$tmp/out" 2>&1 ||
    { echo "FAIL: four accumulators do not solve exercise 06:"; cat "$tmp/out"; fail=1; }
"$ws" exercise check 6 "$root/tests/inflight/hidden_accumulator.cu" >"$tmp/out" 2>&1
rc=$?
[ $rc = 1 ] && grep -Eq "^  \[ \] several loads in flight.*: no" "$tmp/out" ||
    { echo "FAIL: one load in flight in the second float is not refused by exercise 06: exit $rc"; cat "$tmp/out"; fail=1; }
[ $fail = 0 ] && echo "loads in flight count every chain: ok"
exit $fail
