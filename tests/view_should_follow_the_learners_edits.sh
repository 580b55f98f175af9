#!/bin/sh
# Edit and watch: `view --kernel FILE` traces the file again when it changes on disk and stays at
# the same step; an edit that does not compile is said (status line and stderr) and the window
# keeps the last good trace. Under Xvfb, driven by keys (S saves a screenshot named by the step);
# the edits are made by this script once a screenshot shows the window is there. Skipped (77)
# without xvfb-run.
ws="$1"
own="$2/tests/own"
command -v xvfb-run >/dev/null 2>&1 || { echo "xvfb-run not installed: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export XDG_CACHE_HOME="$tmp/cache"
cp "$own/seed004_reduce0.cu" k.cu
# waits (up to 60 s) for a screenshot, and moves it aside as $1
shot() {
    for i in $(seq 600); do
        f=$(ls warpscope-kernel-step*.png 2>/dev/null | head -n 1)
        [ -n "$f" ] && { mv "$f" "$1"; echo "$f"; return 0; }
        sleep 0.1
    done
    return 1
}
(
    first=$(shot one.png) || exit 1
    echo "$first" >first.name
    sed -i 's/sdata\[tid\] += sdata\[tid + s\];/sdata[tid] = sdata[tid] + sdata[tid + s];/' k.cu # still right
    shot two.png >two.name || exit 1
    sed -i 's/__syncthreads();/__syncthreads()/' k.cu # line 9 no longer compiles
) &
editor=$!
timeout 120 xvfb-run -a -s "-screen 0 1024x768x24" "$ws" view --kernel k.cu --define THREAD_PER_BLOCK=256 \
    --entry 'reduce0<<<1, 256>>>(in, out)' --keys "Right,Right,Right,Right,Right,S,wait:6000,S,wait:6000,S,q,q" 2>err
rc=$?
wait $editor
fail=0
[ $rc -eq 0 ] || { echo "FAIL: view exited $rc: $(cat err)"; exit 1; }
first=$(cat first.name 2>/dev/null)
step=$(echo "$first" | sed 's/warpscope-kernel-step\([0-9]*\)\.png/\1/')
[ -n "$step" ] || { echo "FAIL: no first screenshot: $(cat err)"; exit 1; }
grep -q "k.cu changed: traced again, at step $step\$" err || { echo "FAIL: the edit was not traced again at step $step:"; cat err; fail=1; }
[ "$(cat two.name 2>/dev/null)" = "$first" ] || { echo "FAIL: after the edit the window is not at step $step ($(cat two.name 2>/dev/null))"; fail=1; }
grep -q "k.cu:9:[0-9]*: error: expected ';'" err || { echo "FAIL: the edit that does not compile was not said at its line:"; cat err; fail=1; }
[ -f "$first" ] || { echo "FAIL: after the broken edit the window left step $step: $(ls)"; fail=1; }
[ $fail = 0 ] && echo "view follows the learner's edits: ok (step $step)"
exit $fail
