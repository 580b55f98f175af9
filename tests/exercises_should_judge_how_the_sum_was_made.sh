#!/bin/sh
# Exercises judge how the sum was made, not only the sum: every model solution meets every goal
# and every starting file misses one (lesson check); a teacher's folder of four submissions (a
# good one, one whose sum is right but races, one that does not compile, one that never ends)
# gets one checklist each, the others still judged, and exit 1; the racing one is passed by the
# sum and failed by the race goal under the adversarial schedule, the case an output-only judge
# misses; --json says the same; a missing file or an unknown exercise is bad input (2).
ws="$1"
root="$2"
ex="$root/lessons/exercises"
command -v python3 >/dev/null 2>&1 || { echo "FAIL: python3 is needed for this test"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache" XDG_STATE_HOME="$tmp/state"
fail=0

"$ws" lesson check "$ex"/*.json >"$tmp/check" 2>&1 || { echo "FAIL: lesson check of the exercises:"; cat "$tmp/check"; fail=1; }
n=$(grep -c ": ok: exercise-" "$tmp/check")
[ "$n" -ge 9 ] || { echo "FAIL: $n exercises checked, not 9 or more"; cat "$tmp/check"; fail=1; }

# exercise 4: the textbook's volatile tail, made safe with __syncwarp
cp "$ex/04-safe-tail.solution.cu" "$tmp/good.cu"
cp "$ex/04-safe-tail.cu" "$tmp/racing.cu"   # right under lockstep, races without it
sed 's/sdata\[tid\] += sdata\[tid + 32\];/sdata[tid] += sdata[tid + 32]/' "$ex/04-safe-tail.cu" >"$tmp/broken.cu"
sed 's/for (unsigned int s = blockDim.x \/ 2; s > 32; s >>= 1)/for (unsigned int s = blockDim.x \/ 2; s > 32; s += 0)/' "$ex/04-safe-tail.cu" >"$tmp/loops.cu"
cmp -s "$tmp/broken.cu" "$tmp/racing.cu" && { echo "FAIL: the broken copy is not broken"; fail=1; }
cmp -s "$tmp/loops.cu" "$tmp/racing.cu" && { echo "FAIL: the looping copy does not loop"; fail=1; }
(cd "$tmp" && "$ws" exercise check 4 good.cu racing.cu broken.cu loops.cu >out 2>err)
rc=$?
[ $rc = 1 ] || { echo "FAIL: exercise check exited $rc, not 1"; cat "$tmp/out" "$tmp/err"; fail=1; }
python3 - "$tmp/out" <<'PY' || { echo "FAIL: the checklists:"; cat "$tmp/out"; fail=1; }
import re, sys
text = open(sys.argv[1]).read()
blocks = {}
for m in re.finditer(r"^(\S+\.cu): (\d+) of (\d+) goals met(.*)$((?:\n  .*)*)", text, re.M):
    blocks[m.group(1)] = (int(m.group(2)), int(m.group(3)), m.group(4), m.group(5))
assert list(blocks) == ["good.cu", "racing.cu", "broken.cu", "loops.cu"], list(blocks)
met, total, _, _ = blocks["good.cu"]
assert met == total == 4, blocks["good.cu"]
lines = blocks["racing.cu"][3]
assert re.search(r"\[x\] the sum is right: yes", lines), lines
assert re.search(r"\[ \] races under the adversarial search's order: [1-9]", lines), lines
assert blocks["racing.cu"][0] < 4
assert re.search(r"did not run: .*broken\.cu:\d+:\d+: error", blocks["broken.cu"][2]), blocks["broken.cu"]
assert re.search(r"did not run: .*loops\.cu:\d+: .*loop", blocks["loops.cu"][2]), blocks["loops.cu"]
PY
(cd "$tmp" && "$ws" exercise check 4 racing.cu good.cu --json >out.json 2>err)
rc=$?
[ $rc = 1 ] || { echo "FAIL: exercise check --json exited $rc, not 1"; fail=1; }
python3 - "$tmp/out.json" <<'PY' || { echo "FAIL: the JSON report:"; cat "$tmp/out.json"; fail=1; }
import json, sys
d = json.load(open(sys.argv[1]))
r, g = d["files"]
assert r["file"] == "racing.cu" and r["ran"] and not r["solved"], r
assert r["goals"][0]["met"] and r["goals"][0]["value"] == 1, r["goals"][0]
assert any(not x["met"] and x["value"] > 0 and x["equals"] == 0 for x in r["goals"]), r["goals"]
assert g["solved"] and g["met"] == len(g["goals"]), g
PY
# every model solution meets its goals (exit 0); a missing file is bad input, the others still judged
"$ws" exercise check 4 "$ex/04-safe-tail.solution.cu" >/dev/null 2>&1 || { echo "FAIL: the model solution of 4 is not accepted"; fail=1; }
"$ws" exercise check 4 "$tmp/none.cu" "$tmp/good.cu" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q "none.cu: no such file" "$tmp/err" && grep -q "good.cu: 4 of 4" "$tmp/out" ||
    { echo "FAIL: a missing file: exit $rc"; cat "$tmp/out" "$tmp/err"; fail=1; }
"$ws" exercise check nosuch "$tmp/good.cu" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q 'no exercise "nosuch"' "$tmp/err" || { echo "FAIL: an unknown exercise: exit $rc"; cat "$tmp/err"; fail=1; }
# the list: every exercise, none solved yet
"$ws" exercise list >"$tmp/list" 2>&1 || { echo "FAIL: exercise list"; fail=1; }
[ "$(grep -c '^[0-9][0-9]  ' "$tmp/list")" -ge 9 ] || { echo "FAIL: exercise list:"; cat "$tmp/list"; fail=1; }
[ $fail = 0 ] && echo "exercises judge how the sum was made: ok"
exit $fail
