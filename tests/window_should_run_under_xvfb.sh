#!/bin/sh
# A real window under Xvfb on a 1024x768 screen (a projector), driven by key events: steps, a
# phase, a version switch, compare mode, the benchmark view and back, the help closed by Esc
# (which must not quit), a screenshot, and Q twice (quitting asks once). The window must fit in
# 90% of the screen. Skipped (77) without xvfb-run.
ws="$1"
command -v xvfb-run >/dev/null 2>&1 || { echo "xvfb-run not installed: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
timeout 60 xvfb-run -a -s "-screen 0 1024x768x24" "$ws" view --version v0 --block 64 \
    --keys "Right,Right,PageDown,Shift+Right,2,C,Right,Left,B,Right,B,W,Right,T,L,Shift+/,Escape,S,q,q" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: exit $rc: $(cat "$tmp/err")"; exit 1; }
shot=$(ls warpscope-*.png 2>/dev/null | head -n 1)
[ -n "$shot" ] || { echo "FAIL: no screenshot (did Esc quit with the help open?)"; exit 1; }
head -c 8 "$shot" | od -An -tx1 | grep -q "89 50 4e 47 0d 0a 1a 0a" || { echo "FAIL: $shot is not a PNG"; exit 1; }
# the PNG's IHDR holds the window's size: within 90% of 1024x768
w=$(od -An -tu1 -j16 -N4 "$shot" | awk '{print $1*16777216+$2*65536+$3*256+$4}')
h=$(od -An -tu1 -j20 -N4 "$shot" | awk '{print $1*16777216+$2*65536+$3*256+$4}')
[ "$w" -le 921 ] && [ "$h" -le 691 ] || { echo "FAIL: a ${w}x${h} window on a 1024x768 screen"; exit 1; }
# E records: pressed at the first step and again three steps later, it saves steps 0 to 3 as a GIF
timeout 60 xvfb-run -a -s "-screen 0 1024x768x24" "$ws" view --version v1 --block 64 --keys "Home,e,Right,Right,Right,e,q,q" 2>"$tmp/err" ||
    { echo "FAIL: E: $(cat "$tmp/err")"; exit 1; }
[ "$(head -c 6 warpscope-v1-steps0-3.gif 2>/dev/null)" = GIF89a ] || { echo "FAIL: E, 3 steps, E saved no warpscope-v1-steps0-3.gif: $(ls)"; exit 1; }
echo "window_should_run_under_xvfb: ok ($shot, ${w}x${h}; E saved warpscope-v1-steps0-3.gif)"
