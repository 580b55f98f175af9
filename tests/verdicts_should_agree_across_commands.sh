#!/bin/sh
# One truth in every command: a result is "within the tolerance" only when the race detector found
# no race; a racing kernel that sums right under lockstep (the textbook's volatile last warp, v4) is
# "right under this schedule, but racing at line L" in stats, capture and the window's result line,
# exactly when hazards lists races for it; a race-free version (v3) is right everywhere.
ws="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
say() { echo "FAIL: $*"; fail=1; }
for v in v3 v4; do
    "$ws" hazards --version "$v" --json >"$tmp/h.json" 2>/dev/null
    count=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d.get("hazards", [])))' "$tmp/h.json" 2>/dev/null || echo -1)
    "$ws" stats --version "$v" >"$tmp/s" 2>"$tmp/s.err"
    "$ws" capture --version "$v" -o "$tmp/t.json" 2>"$tmp/c.err"
    verdict=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["verdict"])' "$tmp/h.json" 2>/dev/null)
    if [ "$count" -gt 0 ]; then
        [ "$verdict" = racing ] || say "$v races ($count) but hazards --json's verdict is '$verdict'"
        grep -q "^result .*: right under this schedule (lockstep), but racing at line [1-9]" "$tmp/s" || say "$v races ($count) but stats says: $(grep '^result' "$tmp/s")"
        grep -q "RACING: $v computed" "$tmp/c.err" || say "$v races ($count) but capture does not say so: $(cat "$tmp/c.err")"
    elif [ "$count" -eq 0 ]; then
        [ "$verdict" = right ] || say "$v is race-free but hazards --json's verdict is '$verdict'"
        grep -q "^result .*: within the tolerance for this n" "$tmp/s" || say "$v is race-free but stats says: $(grep '^result' "$tmp/s")"
        grep -q "RACING" "$tmp/c.err" && say "$v is race-free but capture says it races"
    else
        say "hazards --json of $v did not parse"
    fi
    echo "$v: $count places racing"
done
# v4 must race and v3 must not: the textbook's volatile tail is the course's race
python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1])).get("hazards") else 1)' "$tmp/h.json" || say "v4's volatile tail shows no race"
exit $fail
