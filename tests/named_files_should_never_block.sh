#!/bin/sh
# Every file a user names (a trace, a kernel of one's own, a lesson, a results file, a metrics
# table) and every file a lesson names (an exercise's starting file) is opened without waiting and
# must be a regular file. A FIFO nobody writes to, a folder or a device is refused at once: exit 2
# (the rule for bad input) with one line on stderr naming the path and what it is. Each command
# runs under `timeout -k 5 20` (KILL 5 s after TERM, which a command may catch), so a command that
# waits on the FIFO fails here instead of hanging.
# Files under /proc are regular: they are still read.
ws="$1"
root="$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
fail=0
cases=0

mkfifo "$tmp/fifo.json" "$tmp/fifo.wstrace" "$tmp/fifo.cu" || { echo "FAIL: mkfifo"; exit 1; }
mkdir "$tmp/folder.json" "$tmp/folder.wstrace" "$tmp/folder.cu"

# refused "the word for what it is" PATH args...: exit 2 within the timeout, one line on stderr,
# naming PATH and the word
refused() {
    word="$1"; path="$2"; shift 2
    cases=$((cases + 1))
    timeout -k 5 20 "$ws" "$@" >/dev/null 2>"$tmp/err" </dev/null
    rc=$?
    lines=$(wc -l <"$tmp/err")
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        echo "FAIL: warpscope $* waited on $path (killed after 20 s)"
        fail=1
    elif [ "$rc" -ne 2 ] || [ "$lines" -ne 1 ] || ! grep -qF -- "$path" "$tmp/err" || ! grep -qF -- "$word" "$tmp/err"; then
        echo "FAIL: warpscope $* -> exit $rc, $lines line(s): $(head -c 400 "$tmp/err") (wanted exit 2 and one line naming $path and \"$word\")"
        fail=1
    fi
}

# each command that reads a file a user names, given a JSON, a compact trace and a .cu file that
# are all one kind of file that is not a regular one
every_command() { # every_command WORD JSON WSTRACE CU
    w="$1"; j="$2"; b="$3"; c="$4"
    refused "$w" "$c" stats --kernel "$c" --entry 'reduce(out,in,n)'
    refused "$w" "$c" capture --kernel "$c" --entry 'reduce(out,in,n)' -o "$tmp/x.json"
    refused "$w" "$c" hazards --kernel "$c" --entry 'reduce(out,in,n)'
    refused "$w" "$c" render --kernel "$c" --entry 'reduce(out,in,n)' -o "$tmp/x.png"
    refused "$w" "$c" render --exercise 01 --kernel "$c" -o "$tmp/x.png"
    refused "$w" "$c" exercise check 01 "$c"
    refused "$w" "$j" stats "$j"
    refused "$w" "$b" stats "$b"
    refused "$w" "$j" render "$j" -o "$tmp/x.png"
    refused "$w" "$b" export "$b" -o "$tmp/x.gif"
    refused "$w" "$j" lesson check "$j"
    refused "$w" "$j" lesson print "$j"
    refused "$w" "$j" render --bench "$j" -o "$tmp/x.png"
    refused "$w" "$j" render --learn "$j" -o "$tmp/x.png"
    refused "$w" "$j" render --version v1 --metrics "$j" -o "$tmp/x.json"
}
every_command FIFO "$tmp/fifo.json" "$tmp/fifo.wstrace" "$tmp/fifo.cu"
every_command folder "$tmp/folder.json" "$tmp/folder.wstrace" "$tmp/folder.cu"
every_command device /dev/null /dev/null /dev/null

# an exercise whose starting file is a FIFO, a folder or a device (through a link): a lesson file
# given by name, and warpscope's own exercises from a data folder (WARPSCOPE_DATA)
ex="$root/lessons/exercises/01-v0-branch.json"
[ -f "$ex" ] || { echo "FAIL: $ex is missing"; exit 1; }
for kind in FIFO folder device; do
    mkdir -p "$tmp/$kind/lesson" "$tmp/$kind/data/lessons/exercises"
    ln -s "$root/assets" "$tmp/$kind/data/assets"
    for d in "$tmp/$kind/lesson" "$tmp/$kind/data/lessons/exercises"; do
        cp "$ex" "$d/"
        case $kind in
            FIFO) mkfifo "$d/01-v0-branch.cu" ;;
            folder) mkdir "$d/01-v0-branch.cu" ;;
            device) ln -s /dev/null "$d/01-v0-branch.cu" ;;
        esac
    done
    start="$tmp/$kind/lesson/01-v0-branch.cu"
    refused "$kind" "$start" lesson check "$tmp/$kind/lesson/01-v0-branch.json"
    refused "$kind" "$start" lesson print "$tmp/$kind/lesson/01-v0-branch.json"
    start="$tmp/$kind/data/lessons/exercises/01-v0-branch.cu"
    export WARPSCOPE_DATA="$tmp/$kind/data"
    refused "$kind" "$start" exercise list
    refused "$kind" "$start" exercise start 01 --dir "$tmp/$kind/mine"
    refused "$kind" "$start" exercise check 01 "$root/lessons/exercises/01-v0-branch.cu"
    refused "$kind" "$start" render --exercise 01 -o "$tmp/x.png"
    unset WARPSCOPE_DATA
done

# /proc's files are regular (of size 0): read, then found not to be JSON at their first byte
cases=$((cases + 1))
timeout -k 5 20 "$ws" stats /proc/self/status >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" -ne 2 ] || ! grep -qF "/proc/self/status:1:1:" "$tmp/err"; then
    echo "FAIL: warpscope stats /proc/self/status -> exit $rc: $(head -c 400 "$tmp/err") (wanted it read: exit 2 at 1:1)"
    fail=1
fi

[ "$fail" -eq 0 ] && echo "ok: $cases commands refused or read at once"
exit "$fail"
