#!/bin/sh
# warpscope lesson check / list / print: every shipped lesson passes the check; a broken one exits 2
# with file:line:column; list shows each lesson once with a progress mark; print fills the numbers.
W="$1"
ROOT="$(dirname "$0")/.."
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$W" lesson check "$ROOT"/lessons/*.json > "$tmp/out" 2> "$tmp/err" || { echo "lesson check failed on the shipped lessons:"; cat "$tmp/err"; fail=1; }
n=$(ls "$ROOT"/lessons/*.json | wc -l)
ok=$(grep -c ': ok: ' "$tmp/out")
[ "$ok" -eq "$n" ] || { echo "expected $n ok lines, got $ok"; fail=1; }

sed 's/"answer": "active_lanes(warp=0)"/"answer": "active_lanes(warp=9)"/' "$ROOT/lessons/02-v0-divergence.json" > "$tmp/bad.json"
"$W" lesson check "$tmp/bad.json" 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] || { echo "a lesson with a bad query should exit 2, got $rc"; fail=1; }
grep -q "bad.json:[0-9]*:[0-9]*: steps\[1\].ask.answer: active_lanes(warp=9): .*warp=9 is out of range" "$tmp/err" || { echo "bad query message:"; cat "$tmp/err"; fail=1; }

# a question about shuffles on a step whose panels hide the shuffle picture is refused at its line
sed 's/"panels": \["source", "tree", "lanes", "counters", "timeline"\]/"panels": ["source", "lanes", "counters", "timeline"]/' "$ROOT/lessons/10-v7-shuffles.json" > "$tmp/hidden.json"
"$W" lesson check "$tmp/hidden.json" 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'hidden.json:[0-9]*:[0-9]*: steps\[1\].ask: the question is about what the tree panel shows' "$tmp/err" ||
    { echo "a question that hides its picture: rc $rc"; cat "$tmp/err"; fail=1; }
# a wave past the launch's last on the step's card (52 on a GTX 1060) is refused at its line
sed 's/"show": {"wave": 1},/"show": {"wave": 60},/' "$ROOT/lessons/13-waves.json" > "$tmp/wave.json"
"$W" lesson check "$tmp/wave.json" 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'wave.json:[0-9]*:[0-9]*: steps\[1\].show.wave: wave 60, but the launch runs in 52 on the gtx1060' "$tmp/err" ||
    { echo "a wave past the last: rc $rc"; cat "$tmp/err"; fail=1; }
# lesson list --lang zh: the Chinese titles alone
XDG_STATE_HOME="$tmp/state" "$W" lesson list --lang zh --dir "$ROOT/lessons" > "$tmp/zh" || fail=1
grep -q "v1-bank-conflicts .*v1：跨步索引与 bank 冲突" "$tmp/zh" && ! grep -q "strided index" "$tmp/zh" || { echo "lesson list --lang zh:"; cat "$tmp/zh"; fail=1; }

printf '{"schema": "warpscope-lesson",\n "schema_version": 1,\n "id": "x" "title": 1}\n' > "$tmp/syntax.json"
"$W" lesson check "$tmp/syntax.json" 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "syntax.json:3:" "$tmp/err" || { echo "syntax error: rc $rc"; cat "$tmp/err"; fail=1; }

"$W" lesson check "$tmp/missing.json" 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] || { echo "a missing file: rc $rc, one line expected"; cat "$tmp/err"; fail=1; }

XDG_STATE_HOME="$tmp/state" "$W" lesson list --dir "$ROOT/lessons" > "$tmp/list" 2> "$tmp/err" || { echo "lesson list failed"; cat "$tmp/err"; fail=1; }
[ "$(grep -c ' new ' "$tmp/list")" -eq "$n" ] || { echo "every lesson should be listed once as new:"; cat "$tmp/list"; fail=1; }
grep -q "v1-bank-conflicts .*bank 冲突" "$tmp/list" || { echo "list should show ids and both titles"; cat "$tmp/list"; fail=1; }

mkdir "$tmp/dup" && cp "$ROOT/lessons/02-v0-divergence.json" "$tmp/dup/a.json" && cp "$ROOT/lessons/02-v0-divergence.json" "$tmp/dup/b.json"
XDG_STATE_HOME="$tmp/state" "$W" lesson list --dir "$tmp/dup" > /dev/null 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'b.json: id "v0-divergence" is already the id of' "$tmp/err" || { echo "two lessons with one id: rc $rc"; cat "$tmp/err"; fail=1; }

"$W" lesson print "$ROOT/lessons/03-v1-bank-conflicts.json" --lang zh > "$tmp/print" || fail=1
grep -q "2 路冲突" "$tmp/print" || { echo "print --lang zh should fill the conflict degree"; fail=1; }
grep -q "{[a-z_]*(" "$tmp/print" && { echo "print left a placeholder unfilled"; fail=1; }

# a lesson of warpscope's own by its number or its name
"$W" lesson print 3 | head -1 | grep -q "^# v1: strided index" || { echo "lesson print 3 should print lesson 03"; fail=1; }
"$W" lesson print waves | head -1 | grep -q "^# The grid as a card runs it" || { echo "lesson print waves should print lesson 13"; fail=1; }
"$W" lesson print wavs 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'no lesson "wavs" (did you mean "waves"?); the lessons are 01 to' "$tmp/err" || { echo "an unknown lesson: rc $rc"; cat "$tmp/err"; fail=1; }

"$W" lesson frobnicate 2> /dev/null; [ $? -eq 2 ] || { echo "unknown lesson subcommand should exit 2"; fail=1; }
"$W" lesson print "$ROOT/lessons/03-v1-bank-conflicts.json" --lang fr 2> /dev/null; [ $? -eq 2 ] || { echo "--lang fr should exit 2"; fail=1; }
exit $fail
