#!/bin/sh
# Exercises judge how the sum was made, not only the sum, as a hidden test suite: every model
# solution (tests/exercises/) meets every goal of the trace in every run (a card goal, without a GPU,
# is said not judged and is not counted), and every starting file misses one (lesson check); a teacher's folder of four submissions (a good one, one whose sum is right in
# lockstep but races, one that does not compile, one that never ends) gets one checklist each, the
# others still judged, and exit 1; the racing one is failed by the sum and the race goal, each
# naming the first run that broke it; --json says the same; a missing file or an unknown exercise is
# bad input (2). Kernels that earlier got full marks (one that races only off lockstep, one that
# reads past its input at n = 8000, one that reads shared words no thread wrote) are refused, and so is
# exercise 10's model solution launched twice (right, but not one launch).
ws="$1"
root="$2"
ex="$root/lessons/exercises"
command -v python3 >/dev/null 2>&1 || { echo "FAIL: python3 is needed for this test"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache" XDG_STATE_HOME="$tmp/state"
fail=0

# every exercise; under the sanitizers (five to ten times slower, each file judged in 15 to 18 runs)
# three of them: the barrier, the safe tail and the single pass
if [ -n "$WS_SANITIZE" ]; then some="03 04 08"; else some=$(cd "$ex" && ls *.json | cut -c1-2); fi
count=$(echo $some | wc -w)
jsons=$(for k in $some; do ls "$ex"/$k-*.json; done)
"$ws" lesson check $jsons >"$tmp/check" 2>&1 || { echo "FAIL: lesson check of the exercises:"; cat "$tmp/check"; fail=1; }
n=$(grep -c ": ok: exercise-" "$tmp/check")
[ "$n" -eq "$count" ] && [ "$count" -ge 3 ] || { echo "FAIL: $n exercises checked, not $count"; cat "$tmp/check"; fail=1; }

# exercise 4: the textbook's volatile tail, made safe with __syncwarp
cp "$root/tests/exercises/04-safe-tail.solution.cu" "$tmp/good.cu"
cp "$ex/04-safe-tail.cu" "$tmp/racing.cu"   # right under lockstep, races without it
sed 's/sdata\[tid\] += sdata\[tid + 32\];/sdata[tid] += sdata[tid + 32]/' "$ex/04-safe-tail.cu" >"$tmp/broken.cu"
sed 's/for (unsigned int s = blockDim.x \/ 2; s > 32; s >>= 1)/for (unsigned int s = blockDim.x \/ 2; s > 32; s += 0)/' "$ex/04-safe-tail.cu" >"$tmp/loops.cu"
cmp -s "$tmp/broken.cu" "$tmp/racing.cu" && { echo "FAIL: the broken copy is not broken"; fail=1; }
cmp -s "$tmp/loops.cu" "$tmp/racing.cu" && { echo "FAIL: the looping copy does not loop"; fail=1; }
(cd "$tmp" && "$ws" exercise check 4 good.cu racing.cu broken.cu loops.cu >out 2>err)
rc=$?
[ $rc = 2 ] || { echo "FAIL: exercise check exited $rc, not 2 (two files not judged)"; cat "$tmp/out" "$tmp/err"; fail=1; }
python3 - "$tmp/out" <<'PY' || { echo "FAIL: the checklists:"; cat "$tmp/out"; fail=1; }
import re, sys
text = open(sys.argv[1]).read()
blocks = {}
for m in re.finditer(r"^(\S+\.cu): (?:(\d+) of (\d+) goals met in \d+ runs(.*)|not judged(: .*))$((?:\n  .*)*)", text, re.M):
    blocks[m.group(1)] = (int(m.group(2) or -1), int(m.group(3) or -1), m.group(4) or m.group(5), m.group(6))
assert list(blocks) == ["good.cu", "racing.cu", "broken.cu", "loops.cu"], list(blocks)
for f in ("broken.cu", "loops.cu"):  # not judged: said apart from the goals, none counted
    assert blocks[f][0] == -1 and blocks[f][3] == "", blocks[f]
met, total, _, _ = blocks["good.cu"]
assert met == total == 6, blocks["good.cu"]  # exercise 04: 6 goals
lines = blocks["racing.cu"][3]
assert re.search(r"\[ \] the sum is right, in every run: no .*first broken at n = \d+, (its:1|adversarial)", lines), lines
assert re.search(r"\[ \] no races, in any run: [1-9].*first broken at n = \d+", lines), lines
assert blocks["racing.cu"][0] < 6
assert re.match(r": it did not run: .*broken\.cu:\d+:\d+: error", blocks["broken.cu"][2]), blocks["broken.cu"]
assert re.match(r": it did not run: .*loops\.cu(:\d+: .*loop|: still running after 15 s)", blocks["loops.cu"][2]), blocks["loops.cu"]  # its line, or (under the sanitizers, slower) the wall clock
PY
(cd "$tmp" && "$ws" exercise check 4 racing.cu good.cu --json >out.json 2>err)
rc=$?
[ $rc = 1 ] || { echo "FAIL: exercise check --json exited $rc, not 1"; fail=1; }
python3 - "$tmp/out.json" <<'PY' || { echo "FAIL: the JSON report:"; cat "$tmp/out.json"; fail=1; }
import json, sys
d = json.load(open(sys.argv[1]))
r, g = d["files"]
assert r["file"] == "racing.cu" and r["ran"] and not r["solved"], r
assert not r["goals"][1]["met"] and r["goals"][1]["every_run"] and r["goals"][1]["broken_at"], r["goals"][1]
assert any(not x["met"] and x["value"] > 0 and x["equals"] == 0 for x in r["goals"]), r["goals"]
assert g["solved"] and g["met"] == len(g["goals"]), g
PY
# every model solution meets every goal of the trace in every run (exit 0); where the exercise has a
# card goal (exercise 10) and there is no GPU, that goal is not judged: said in words, not counted as
# met, the exercise not solved (exit 1); where there is a GPU, the card judged it
for k in $some; do
    s=$(ls "$root"/tests/exercises/$k-*.solution.cu)
    b=$(basename "$s" .solution.cu)
    "$ws" exercise check "${b%%-*}" "$s" --json >"$tmp/sol.json" 2>"$tmp/sol.err"
    rc=$?
    python3 - "$tmp/sol.json" "$ex/$b.json" $rc <<'PY' || { echo "FAIL: the model solution $b is not accepted (exit $rc):"; cat "$tmp/sol.json" "$tmp/sol.err"; fail=1; }
import json, sys
d, rc = json.load(open(sys.argv[1])), int(sys.argv[3])
x = json.load(open(sys.argv[2]))["exercise"]
f = d["files"][0]
trace_goals = [g for g in f["goals"] if not g.get("card")]
card = [g for g in f["goals"] if g.get("card")]
assert len(trace_goals) == len(x["goals"]) and all(g["met"] for g in trace_goals), trace_goals
assert len(card) == (1 if x.get("gpu", {}).get("fraction") else 0), card
if not card:
    assert f["solved"] and f["met"] == len(trace_goals) and rc == 0, (f, rc)
elif d["card"] is None:  # no GPU here: the card's goal is not judged, and not met
    c = card[0]
    assert c["state"] == "not-judged" and c["why"] == "not judged here: no GPU" and not c["met"] and c["value"] is None, c
    assert c["goal"] == "on the card: at least %.3g %% of its best read at n = 2^%d" % (100 * x["gpu"]["fraction"], max(x["gpu"]["sizes"]).bit_length() - 1), c
    assert f["met"] == len(trace_goals) and not f["solved"] and rc == 1, (f, rc)
else:  # a GPU: the card judged it
    assert card[0]["state"] in ("timed", "wrong", "failed") and f["gpu"]["state"] == card[0]["state"], (card, f.get("gpu"))
    assert f["solved"] == card[0]["met"] and rc == (0 if f["solved"] else 1), (f, rc)
PY
done
# the text says it too: without a GPU, the card's line is not judged and one line says why
if grep -q '"card":[[:space:]]*null' "$tmp/sol.json" 2>/dev/null && echo " $some " | grep -q " 10 "; then
    "$ws" exercise check 10 "$root/tests/exercises/10-last-rung.solution.cu" >"$tmp/sol" 2>&1
    rc=$?
    [ $rc = 1 ] && grep -q "goals met in" "$tmp/sol" && grep -Eq '^  \[-\] on the card: at least [0-9.]+ % of its best read at n = 2\^26: not judged here: no GPU$' "$tmp/sol" &&
        [ "$(grep -c "^  (no GPU here: the card's goal is not judged)$" "$tmp/sol")" = 1 ] &&
        "$ws" exercise check 8 "$root/tests/exercises/08-last-block.solution.cu" >"$tmp/sol8" 2>&1 && ! grep -q "no GPU" "$tmp/sol8" ||
        { echo "FAIL: exercise 10's card goal without a GPU (exit $rc):"; cat "$tmp/sol" "$tmp/sol8"; fail=1; }
fi
# kernels that earlier got full marks: each misses a goal now, naming the run that broke it
awk '/__syncthreads\(\);/ && ++k == 2 { print "        if (s < 8) __syncthreads();"; next } { print }' \
    "$root/tests/exercises/02-v1-padding.solution.cu" >"$tmp/race02.cu"
sed -e 's/float mySum = (i < n) ? g_idata\[i\] : 0.0f;/float mySum = g_idata[i];/' -e 's/if (i + blockDim.x < n) mySum +=/mySum +=/' \
    "$root/tests/exercises/05-first-add.solution.cu" >"$tmp/bounds05.cu"
sed 's/sdata\[tid\] = (i < n) ? g_idata\[i\] : 0.0f;/if (i < n) sdata[tid] = g_idata[i];/' "$root/tests/exercises/01-v0-branch.solution.cu" >"$tmp/uninit01.cu"
for f in race02.cu:2:"no races, in any run: [1-9]" bounds05.cu:5:"(did not run|at n = [0-9]+, [a-z0-9:]+): bounds05.cu:[0-9]+: .*beyond a buffer" \
         uninit01.cu:1:"no read of shared memory no thread wrote, in any run: [1-9]"; do
    file=${f%%:*}; rest=${f#*:}; num=${rest%%:*}; want=${rest#*:}
    cmp -s "$tmp/$file" "$root/tests/exercises/$(ls "$root/tests/exercises" | grep "^0$num-")" && { echo "FAIL: $file is the solution unchanged"; fail=1; }
    (cd "$tmp" && "$ws" exercise check "$num" "$file" >out 2>err)
    rc=$?
    { [ $rc = 1 ] || [ $rc = 2 ]; } && grep -Eq "(\[ \] |; |not judged: it )$want" "$tmp/out" || { echo "FAIL: $file (exercise $num) is not refused with '$want': exit $rc"; cat "$tmp/out" "$tmp/err"; fail=1; }
done
# exercise 10: the model solution launched twice is right, and not one launch
if echo " $some " | grep -q " 10 "; then
    awk '/reduce<<<grid, BLOCK>>>\(in, out, count, n\);/ { print; print "    reduce<<<grid, BLOCK>>>(in, out, count, n);"; next } { print }' \
        "$root/tests/exercises/10-last-rung.solution.cu" >"$tmp/twice10.cu"
    (cd "$tmp" && "$ws" exercise check 10 twice10.cu >out 2>err)
    rc=$?
    [ $rc = 1 ] && grep -q "^twice10.cu: 5 of 7 goals met" "$tmp/out" && grep -Eq '^  \[ \] one launch: a single pass, in every run: 2, goal 1 \(first broken at n = [0-9]+' "$tmp/out" &&
        grep -q '^  \[x\] the sum is right' "$tmp/out" || { echo "FAIL: exercise 10 launched twice is not refused by its one launch: exit $rc"; cat "$tmp/out" "$tmp/err"; fail=1; }
fi
# a missing file is bad input, the others still judged
"$ws" exercise check 4 "$tmp/none.cu" "$tmp/good.cu" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q "none.cu: no such file" "$tmp/err" && grep -q "good.cu: 6 of 6" "$tmp/out" ||
    { echo "FAIL: a missing file: exit $rc"; cat "$tmp/out" "$tmp/err"; fail=1; }
"$ws" exercise check nosuch "$tmp/good.cu" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q 'no exercise "nosuch"' "$tmp/err" || { echo "FAIL: an unknown exercise: exit $rc"; cat "$tmp/err"; fail=1; }
# the list: every exercise, none solved yet
"$ws" exercise list >"$tmp/list" 2>&1 || { echo "FAIL: exercise list"; fail=1; }
[ "$(grep -c '^[0-9][0-9]  ' "$tmp/list")" -ge 9 ] || { echo "FAIL: exercise list:"; cat "$tmp/list"; fail=1; }
[ $fail = 0 ] && echo "exercises judge how the sum was made: ok"
exit $fail
