#!/bin/sh
# Hostile files made by hand from real captures and lessons, one per class of harm: each is either
# refused (exit 2, one line naming what was wrong and where) or handled within bounds (no crash,
# output and work that follow the file's size). A guard of 60 s and 2 GB of memory turns a hang or
# a runaway allocation into a failure; it is a fence, not a timing.
ws="$1"
src="$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
say() { echo "FAIL: $*"; fail=1; }
# at most 2 GB of address space (not under ASan, which reserves terabytes up front) and 60 s
if [ -n "$WS_SANITIZE" ]; then fenced() { timeout 60 "$@"; }; else fenced() { (ulimit -v 2000000 2>/dev/null; timeout 60 "$@"); }; fi

"$ws" capture --version naive --block 32 -o "$tmp/naive.json" 2>/dev/null || { echo "FAIL: capture naive"; exit 1; }

python3 - "$tmp" "$src" <<'EOF'
import json, sys
tmp, src = sys.argv[1], sys.argv[2]
lesson = json.load(open(src + "/lessons/03-v1-bank-conflicts.json"))
def with_answer(q):
    l = json.loads(json.dumps(lesson))
    for st in l["steps"]:
        if "ask" in st and "answer" in st["ask"]:
            st["ask"]["answer"] = q
            return l
# a query nested thousands deep: parentheses, unary minus, calls
json.dump(with_answer("(" * 1500 + "1" + ")" * 1500), open(tmp + "/deep-paren.json", "w"))
json.dump(with_answer("-" * 3000 + "1"), open(tmp + "/deep-minus.json", "w"))
json.dump(with_answer("-" * 100000 + "1"), open(tmp + "/long-query.json", "w"))
# a lesson asking the emulator for 2^31 elements
l = json.loads(json.dumps(lesson))
l["steps"][0]["show"]["capture"] = {"block": 256, "n": 2 ** 31}
json.dump(l, open(tmp + "/big-capture.json", "w"))
t = json.load(open(tmp + "/naive.json"))
# a global access spanning elements 0 and 2^40 - 1 (both inside the documented limits)
s = json.loads(json.dumps(t))
for e in s["events"]:
    if e["k"] == "global_load":
        e["a"][-1] = 2 ** 40 - 1
        break
json.dump(s, open(tmp + "/span.json", "w"))
# a grid of 2^32 - 1 blocks declared, one traced; and one of 2^28 in every pass
g = json.loads(json.dumps(t))
g["passes"][0]["grid"] = 2 ** 32 - 1
g["passes"][0]["grid_dim"] = [65537, 65535, 1]  # 2^32 - 1 = 65537 x 65535, within CUDA's x and y limits
json.dump(g, open(tmp + "/grid32.json", "w"))
g["passes"][0]["grid_dim"] = [1, 1, 1]  # a shape that does not multiply to the grid
json.dump(g, open(tmp + "/grid-shape.json", "w"))
g = json.loads(json.dumps(t))
for p in g["passes"]:
    p["grid"] = 2 ** 28
    p["grid_dim"] = [2 ** 28, 1, 1]
json.dump(g, open(tmp + "/grid28.json", "w"))
# 20,000 blocks of 1024 threads, each one barrier at phase 4095: threads x phases per block
p = json.loads(json.dumps(t))
p["passes"] = [{"grid": 20000, "block": 1024, "stride": 1, "n_in": 20000 * 1024}]
p["buffers"] = [{"name": "in", "pass": 0}]
p["events"] = [{"k": "barrier", "p": 0, "b": b, "w": 0, "l": 1, "ph": 4095, "m": 4294967295} for b in range(20000)]
p["provenance"].update(block=1024, n=20000 * 1024, blocks_traced=20000)
json.dump(p, open(tmp + "/phases.json", "w"))
# a results file whose spec peak is 1e15 GB/s (the chart's axis)
r = json.load(open(src + "/assets/bench-h100.json"))
r["spec_peak_gbs"] = 1e15
json.dump(r, open(tmp + "/peak.json", "w"))
EOF

# refused, with the place
for f in deep-paren deep-minus long-query big-capture; do
    for cmd in "lesson check" "lesson print"; do
        fenced $ws $cmd "$tmp/$f.json" >/dev/null 2>"$tmp/err"
        rc=$?
        [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "$f.json:1:[0-9]*: " "$tmp/err" ||
            say "$cmd $f.json: exit $rc (wanted 2 and one line at file:line:column): $(head -c 300 "$tmp/err")"
    done
done
fenced $ws lesson check "$tmp/deep-paren.json" 2>&1 | grep -q "nests parentheses, calls and signs more than 64 deep" || say "deep-paren: the message does not say how deep"
fenced $ws lesson check "$tmp/big-capture.json" 2>&1 | grep -q "capture.n: expected a whole number from 1 to 1048576" || say "big-capture: the message does not give the cap"
fenced $ws render --learn "$tmp/deep-minus.json" -o "$tmp/x.png" 2>/dev/null; [ $? -eq 2 ] || say "render --learn deep-minus: not refused"
[ -e "$tmp/x.png" ] && say "render --learn deep-minus wrote a PNG"

# handled within bounds
fenced $ws render "$tmp/span.json" --frames "$tmp/frames" 2>"$tmp/err" || say "render --frames span.json: exit $?: $(cat "$tmp/err")"
fenced $ws export "$tmp/span.json" -o "$tmp/span.gif" 2>"$tmp/err" || say "export span.json: exit $?: $(cat "$tmp/err")"
ls -A "$tmp" | grep -q '^\.' && say "a hidden temporary file was left behind: $(ls -A "$tmp" | grep '^\.')"
fenced $ws stats "$tmp/grid32.json" --json --all-blocks 2>"$tmp/err" | head -c 1000000 >"$tmp/out.json"
bytes=$(wc -c <"$tmp/out.json")
[ "$bytes" -lt 100000 ] || say "stats --json --all-blocks of a 2^32 - 1 grid printed $bytes bytes or more"
python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["partials_all_blocks"]; assert list(p) == ["0"], p' "$tmp/out.json" ||
    say "stats --all-blocks of grid32.json: partials are not the one traced block"
fenced $ws render "$tmp/grid28.json" --actions grid -o "$tmp/g.png" 2>"$tmp/err" || say "grid view of a 2^28 grid: exit $?: $(cat "$tmp/err")"
fenced $ws stats "$tmp/grid-shape.json" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "grid_dim" "$tmp/err" || say "a grid whose shape is not its size: exit $rc (want 2 naming grid_dim): $(cat "$tmp/err")"
fenced $ws stats "$tmp/phases.json" --all-blocks >"$tmp/out" 2>"$tmp/err" || say "stats --all-blocks of 20,000 blocks at phase 4095: exit $?: $(cat "$tmp/err")"
grep -q "^total" "$tmp/out" || say "stats --all-blocks of phases.json printed no totals"
fenced $ws render --bench "$tmp/peak.json" -o "$tmp/b.png" 2>"$tmp/err" || say "render --bench with a peak of 1e15: exit $?: $(cat "$tmp/err")"

[ $fail -eq 0 ] && echo "hostile_files_should_be_bounded: ok"
exit $fail
