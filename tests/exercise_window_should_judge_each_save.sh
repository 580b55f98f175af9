#!/bin/sh
# exercise start: the starting file is copied into a folder of the learner's (said on stderr), the
# window judges it (6 of 7 goals for exercise 2: v1's bank conflicts), and when the learner saves
# the model solution over their copy the window judges it again (7 of 7) and records the exercise
# as solved (exercise list). A copy already there is kept; one that does not compile still opens. Under Xvfb, driven by keys (S saves a
# screenshot); skipped (77) without xvfb-run.
ws="$1"
root="$2"
command -v xvfb-run >/dev/null 2>&1 || { echo "xvfb-run not installed: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export XDG_CACHE_HOME="$tmp/cache" XDG_STATE_HOME="$tmp/state"
fail=0
# waits (up to 60 s) for a screenshot and moves it aside as $1
shot() {
    for i in $(seq 600); do
        f=$(ls warpscope-kernel-step*.png 2>/dev/null | head -n 1)
        [ -n "$f" ] && { mv "$f" "$1"; return 0; }
        sleep 0.1
    done
    return 1
}
(
    shot one.png || exit 1
    cp "$root/tests/exercises/02-v1-padding.solution.cu" mine/02-v1-padding.cu
    shot two.png
) &
editor=$!
timeout 120 xvfb-run -a -s "-screen 0 1024x768x24" "$ws" exercise start 2 --dir mine --keys "S,wait:8000,S,q,q" 2>err
rc=$?
wait $editor
[ $rc -eq 0 ] || { echo "FAIL: exercise start exited $rc: $(cat err)"; exit 1; }
grep -q "your copy of the starting file: mine/02-v1-padding.cu" err || { echo "FAIL: where the copy went is not said:"; cat err; fail=1; }
grep -q "02-v1-padding.cu: 6 of 7 goals met" err || { echo "FAIL: the starting file was not judged 6 of 7:"; cat err; fail=1; }
grep -q "02-v1-padding.cu: 7 of 7 goals met" err || { echo "FAIL: the saved solution was not judged 7 of 7:"; cat err; fail=1; }
"$ws" exercise list >list 2>&1
grep -q "^02  v1-padding .*solved" list || { echo "FAIL: exercise 2 is not recorded as solved:"; cat list; fail=1; }
# again: the learner's copy is kept, not overwritten by the starting file
timeout 60 xvfb-run -a -s "-screen 0 1024x768x24" "$ws" exercise start 2 --dir mine --keys "q,q" 2>err2
grep -q "is there already: it is kept" err2 || { echo "FAIL: the second start did not keep the copy:"; cat err2; fail=1; }
cmp -s mine/02-v1-padding.cu "$root/tests/exercises/02-v1-padding.solution.cu" || { echo "FAIL: the learner's copy was overwritten"; fail=1; }
# a copy that does not compile still opens: the checklist says why, the picture is the starting file's
sed -i 's/__syncthreads();/__syncthreads()/' mine/02-v1-padding.cu
timeout 60 xvfb-run -a -s "-screen 0 1024x768x24" "$ws" exercise start 2 --dir mine --keys "q,q" 2>err3
rc=$?
[ $rc -eq 0 ] && grep -q "02-v1-padding.cu: 0 of 7 goals met" err3 || { echo "FAIL: a copy that does not compile did not open (exit $rc):"; cat err3; fail=1; }
[ $fail = 0 ] && echo "the exercise window judges each save: ok"
exit $fail
