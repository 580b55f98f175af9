#!/bin/sh
# Every command that can run long stops within half a second of SIGINT or SIGTERM: exit 130 or
# 143, one line saying it was interrupted, and no output file, whole, partial or temporary.
# verify and bench need a GPU: here they end at once without one, and are left to the gpu tests.
ws="$1"
src="$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# a lesson whose steps each capture 2^20 elements of another version: lesson check runs seconds
python3 - "$src" "$tmp/long-lesson.json" <<'PY'
import json, sys
l = json.load(open(sys.argv[1] + "/lessons/01-what-is-a-reduction.json"))
step = l["steps"][0]
l["steps"] = []
for v in ["v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v0", "v1", "v2"]:
    s = json.loads(json.dumps(step))
    s.pop("ask", None)
    s["show"] = {"version": v, "capture": {"block": 256, "n": 1 << 20}}
    l["steps"].append(s)
json.dump(l, open(sys.argv[2], "w"))
PY

# name | signal | what to run (in $tmp/run; it writes there)
check() {
    name="$1" sig="$2"
    shift 2
    rm -rf "$tmp/run"
    mkdir "$tmp/run"
    (cd "$tmp/run" && exec "$@") 2>"$tmp/err" >/dev/null &
    pid=$!
    sleep 0.7
    t0=$(date +%s%N)
    kill -"$sig" $pid 2>/dev/null
    wait $pid
    rc=$?
    ms=$((($(date +%s%N) - t0) / 1000000))
    want=$([ "$sig" = INT ] && echo 130 || echo 143)
    if [ "$rc" -ne "$want" ] || ! grep -q "interrupted" "$tmp/err" || [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
        echo "FAIL: $name on SIG$sig: exit $rc, stderr: $(head -c 400 "$tmp/err") (wanted $want and one line saying interrupted)"
        fail=1
    fi
    # the target is half a second (the numbers printed below); the fence here catches a command that
    # does not stop at all, not a busy machine
    [ "$ms" -le 5000 ] || { echo "FAIL: $name on SIG$sig: still running $ms ms after the signal"; fail=1; }
    left=$(cd "$tmp/run" && find . -mindepth 1 | grep -v '^\./frames$' | head -n 5)
    [ -z "$left" ] || { echo "FAIL: $name on SIG$sig: left behind: $left"; fail=1; }
    echo "$name SIG$sig: exit $rc after $ms ms"
}

for sig in INT TERM; do
    check "capture json" $sig "$ws" capture --version v2 --n 2^24 --workers 1 -o x.json
    check "capture compact" $sig "$ws" capture --version v2 --n 2^24 --workers 1 -o x.wstrace
    check "stats" $sig "$ws" stats --version v2 --n 2^24 --workers 1
    check "hazards (adversarial search)" $sig "$ws" hazards --version v4_novolatile --n 2^22 --schedule adversarial
    check "render, capturing" $sig "$ws" render --version v2 --n 2^24 --workers 1 -o x.png
    check "render --frames" $sig sh -c "mkdir frames && exec \"$ws\" render --version v0 --block 1024 --frames frames"
    check "export gif" $sig "$ws" export --version v0 --block 1024 --size 1920x1080 --fps 50 -o x.gif # about 2.5 s: 279 frames
    check "export png frames" $sig "$ws" export --version v0 --block 1024 -o pngs/
    check "export svg, capturing" $sig "$ws" export --version v2 --n 2^24 --workers 1 --step 3 -o x.svg
    check "lesson check" $sig "$ws" lesson check "$tmp/long-lesson.json"
    # a kernel of one's own whose host code loops long: compiling, or its process running
    XDG_CACHE_HOME="$tmp/cache" check "stats --kernel" $sig "$ws" stats --kernel "$src/tests/own/long_host_loop.cu" --entry 'run(in, out)'
    sleep 0.2
    ! pgrep -f "long_host_loop.cu" >/dev/null || { echo "FAIL: stats --kernel on SIG$sig left its program running"; fail=1; }
done
[ $fail -eq 0 ] && echo "long_commands_should_stop_when_asked: ok"
exit $fail
