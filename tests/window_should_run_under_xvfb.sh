#!/bin/sh
# A real window under Xvfb, driven by key events: steps, a phase, a version switch, compare mode,
# the benchmark view and back, a screenshot, quit. Skipped (77) without xvfb-run.
ws="$1"
command -v xvfb-run >/dev/null 2>&1 || { echo "xvfb-run not installed: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
timeout 60 xvfb-run -a -s "-screen 0 1600x900x24" "$ws" view --version v0 --block 64 \
    --keys "Right,Right,PageDown,Shift+Right,2,C,Right,Left,B,Right,B,W,Right,T,Shift+/,Shift+/,S,q" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: exit $rc: $(cat "$tmp/err")"; exit 1; }
shot=$(ls warpscope-*.png 2>/dev/null | head -n 1)
[ -n "$shot" ] || { echo "FAIL: no screenshot"; exit 1; }
# the screenshot is a PNG of the window's size
head -c 8 "$shot" | od -An -tx1 | grep -q "89 50 4e 47 0d 0a 1a 0a" || { echo "FAIL: $shot is not a PNG"; exit 1; }
echo "window_should_run_under_xvfb: ok ($shot)"
