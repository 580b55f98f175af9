#!/bin/sh
# As root, wherever warpscope lies (a 0700 home such as /root, a container's default), a learner's
# file runs as an unprivileged user: warpscope installed in a 0700 folder made here (its programs
# copied there, its data beside them), `exercise check` of a model solution solves, and the
# learner's host code, which prints its own uid, ran as a uid that is not 0. The sandbox never
# says "nobody does not work here". Skipped (77) when not root.
ws="$1"
root="$2"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: not root"; exit 77; }
command -v bwrap >/dev/null 2>&1 || { echo "SKIP: no bubblewrap (user namespaces) here"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
home="$tmp/home"
mkdir -m 700 "$home"
bin=$(dirname "$ws")
mkdir -p "$home/bin" "$home/share/warpscope/include/trace/capture/own"
for p in warpscope warpscope-run warpscope-frontend; do cp "$bin/$p" "$home/bin/" || { echo "FAIL: no $bin/$p"; exit 1; }; done
d="$home/share/warpscope"
cp -r "$root/assets" "$root/lessons" "$d/"
cp "$root/trace/trace.h" "$d/include/trace/"
cp "$root/trace/capture/emu.h" "$root/trace/capture/ws_cuda.h" "$d/include/trace/capture/"
cp "$root/trace/capture/own/"ws_*.h "$d/include/trace/capture/own/"
cp -r "$root/trace/capture/own/include" "$d/include/trace/capture/own/"
mkdir "$home/class"
# the model solution, and a constructor that ends the run when it runs as root (WHO 0) or when it
# does not (WHO 1, the control: it must fail, or the uid was never looked at)
for who in 0 1; do
    { cat "$root/tests/exercises/03-missing-barrier.solution.cu"; cat <<CU
#include <stdlib.h>
#include <unistd.h>
__attribute__((constructor)) static void who_runs(void) { if ((getuid() == 0) == ($who == 0)) abort(); }
CU
    } >"$home/class/who$who.cu"
done
export XDG_CACHE_HOME="$home/cache" XDG_STATE_HOME="$home/state"
unset WARPSCOPE_RUN WARPSCOPE_DATA WARPSCOPE_SANDBOX_OFF
"$home/bin/warpscope" --version >"$tmp/version" 2>&1
grep -q "^sandbox for a learner's file: bubblewrap.*as nobody" "$tmp/version" || { echo "FAIL: not bubblewrap as nobody:"; cat "$tmp/version"; fail=1; }
grep -q "nobody does not work" "$tmp/version" && { echo "FAIL: --version says nobody does not work"; fail=1; }
(cd "$home/class" && "$home/bin/warpscope" exercise check 3 who0.cu >"$tmp/out0" 2>&1)
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: the model solution, checked from a 0700 folder as root, exited $rc (its code ran as root, or not at all):"; cat "$tmp/out0"; fail=1; }
grep -q "nobody does not work" "$tmp/out0" && { echo "FAIL: the check says nobody does not work"; fail=1; }
(cd "$home/class" && "$home/bin/warpscope" exercise check 3 who1.cu >"$tmp/out1" 2>&1)
rc=$?
[ $rc -ne 0 ] || { echo "FAIL: the control (it stops when not root) solved: the uid was not looked at"; cat "$tmp/out1"; fail=1; }
exit $fail
