#!/bin/sh
# warpscope render: byte-identical PNGs run to run, every step with --frames, the benchmark chart,
# and bad input rejected with one line.
ws="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
"$ws" render --version v1 --block 64 --phase 2 --size 800x600 -o "$tmp/a.png" 2>/dev/null || { echo "FAIL: render"; fail=1; }
"$ws" render --version v1 --block 64 --phase 2 --size 800x600 -o "$tmp/b.png" 2>/dev/null
cmp -s "$tmp/a.png" "$tmp/b.png" || { echo "FAIL: two renders differ"; fail=1; }
"$ws" capture --version v2 --block 32 -o "$tmp/t.json" 2>/dev/null
"$ws" render "$tmp/t.json" --size 640x400 --frames "$tmp/frames" 2>/dev/null || { echo "FAIL: frames"; fail=1; }
steps=$(ls "$tmp/frames" | wc -l)
[ "$steps" -gt 5 ] || { echo "FAIL: $steps frames"; fail=1; }
"$ws" render --bench "$(dirname "$0")/../assets/bench-h100.json" -o "$tmp/bench.png" 2>/dev/null || { echo "FAIL: bench chart"; fail=1; }
[ -s "$tmp/bench.png" ] || { echo "FAIL: no bench chart"; fail=1; }
printf '{"schema": "warpscope-bench", "device": 1}' >"$tmp/bad.json"
"$ws" render --bench "$tmp/bad.json" -o "$tmp/x.png" 2>"$tmp/err"; rc=$?
{ [ $rc -eq 2 ] && grep -q "bad.json: device: expected a string" "$tmp/err" && [ "$(wc -l <"$tmp/err")" -eq 1 ]; } || { echo "FAIL: bad results: exit $rc, $(cat "$tmp/err")"; fail=1; }
"$ws" render --version v1 --phase 99 -o "$tmp/x.png" 2>"$tmp/err"; rc=$?
{ [ $rc -eq 2 ] && grep -q -- "--phase 99: the trace has phases 0 to" "$tmp/err"; } || { echo "FAIL: --phase 99: exit $rc, $(cat "$tmp/err")"; fail=1; }
"$ws" render --version v1 --size 10x10 -o "$tmp/x.png" 2>"$tmp/err"; rc=$?
{ [ $rc -eq 2 ] && grep -q -- "--size expects" "$tmp/err"; } || { echo "FAIL: --size 10x10"; fail=1; }
"$ws" render --version v1 2>"$tmp/err"; rc=$?
{ [ $rc -eq 2 ] && grep -q "render needs -o" "$tmp/err"; } || { echo "FAIL: no -o"; fail=1; }
"$ws" render --version v1 --theme pink -o "$tmp/x.png" 2>"$tmp/err"; rc=$?
{ [ $rc -eq 2 ] && grep -q "theme must be light or dark" "$tmp/err"; } || { echo "FAIL: --theme pink"; fail=1; }
env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER timeout 20 "$ws" view --version v0 2>"$tmp/err"; rc=$?
env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER timeout 20 "$ws" 2>>"$tmp/err" </dev/null; rc2=$?
{ [ $rc -eq 2 ] && [ $rc2 -eq 2 ] && grep -q "no display" "$tmp/err" && grep -q "warpscope render" "$tmp/err" && [ "$(wc -l <"$tmp/err")" -eq 2 ]; } || { echo "FAIL: no display: exit $rc, $(cat "$tmp/err")"; fail=1; }
[ $fail -eq 0 ] && echo "render_cli: ok"
exit $fail
