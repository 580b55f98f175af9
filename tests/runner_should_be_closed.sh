#!/bin/sh
# warpscope-run, the process a learner's file is loaded into, exposes nothing and is closed: one
# hostile file (tests/own/hostile/) per class, each run in every sandbox mode this machine has
# (bubblewrap, and Landlock alone: WARPSCOPE_SANDBOX_OFF=namespaces). Expected sums come from the
# data (--data ones, n = 256: 256).
. "$(dirname "$0")/own_test_setup.sh"
hostile="$own/hostile"
say() { echo "FAIL: $*"; fail=1; }

"$ws" --version | grep -q "^sandbox for a learner's file: .*Landlock" || { echo "SKIP: no Landlock here: $("$ws" --version | grep sandbox)"; exit 77; }

# a process of the user the runs run as, for the file to try to signal
victim_as=""
[ "$(id -u)" -eq 0 ] && victim_as="setpriv --reuid=nobody --regid=nogroup --clear-groups"
$victim_as sleep 300 &
victim=$!
trap 'kill $victim 2>/dev/null; rm -rf "$tmp"' EXIT

# a trace of another file's, the teacher's: what a link in the trace's place would make warpscope read
cat "$own/one_block_sum.cu" - >"$tmp/other.cu" <<'CU'
void twice(const float *in, float *out, unsigned n) { k<<<1, 256>>>(in, out, n); k<<<1, 256>>>(out, out, 1); }
CU
"$ws" capture --kernel "$tmp/other.cu" --entry 'twice(in, out, n)' --n 256 --data ramp -o "$tmp/foreign.wstrace" 2>"$tmp/err" ||
    say "the teacher's trace: $(cat "$tmp/err")"
chmod 644 "$tmp/foreign.wstrace"
chmod 755 "$tmp"

for off in "" namespaces; do
    m="[off: ${off:-none}]"
    export WARPSCOPE_SANDBOX_OFF="$off"
    if [ -z "$off" ] && ! "$ws" --version | grep -q "^sandbox for a learner's file: bubblewrap"; then continue; fi

    # A. nothing of warpscope's is reachable from the file: no symbol but its hooks, no ladder kernel, no header
    out=$("$ws" stats --kernel "$hostile/reaches_the_runner.cu" --entry 'run(in, out, n)' --n 256 --data ones 2>&1)
    echo "$out" | grep -q "^result 256," || say "$m the file found warpscope's own code or headers: $(echo "$out" | grep -m1 -E '^result|warpscope|error')"

    # A. host code that reads device memory stops, told so at its line, as a GPU would stop it
    out=$("$ws" stats --kernel "$hostile/host_reads_device.cu" --entry 'run(in, out, n)' --n 256 --data ones 2>&1)
    rc=$?
    [ $rc -eq 2 ] || say "$m host code reading device memory exited $rc, not 2: $(echo "$out" | head -2)"
    echo "$out" | grep -Eq "host_reads_device.cu:1[57]: host code at or after this line .*read or wrote device memory \(buffer in, byte 0\)" ||
        say "$m host code reading device memory is not named at its line: $out"
    [ "$(echo "$out" | wc -l)" -eq 1 ] || say "$m more than one line: $out"

    # B. no call that sends a signal reaches a process outside the run
    out=$("$ws" stats --kernel "$hostile/signals_others.cu" --entry 'run(in, out, n)' --define "VICTIM=$victim" --n 256 --data ones 2>&1)
    echo "$out" | grep -q "^result 256," || say "$m a call that signals another process succeeded: $(echo "$out" | grep -m1 -E '^result|warpscope|error')"
    kill -0 $victim 2>/dev/null || { say "$m the file killed a process outside its run"; $victim_as sleep 300 & victim=$!; }

    # B. the trace comes back through the descriptor warpscope opened: a link put in its place is never followed
    out=$("$ws" stats --kernel "$hostile/replaces_its_trace.cu" --entry 'run(in, out, n)' --define "FOREIGN=\"$tmp/foreign.wstrace\"" \
        --n 256 --data ones 2>&1)
    echo "$out" | grep -q "^result 256," || say "$m a link in the trace's place was followed: $(echo "$out" | grep -m1 -E '^result|warpscope|error')"
    echo "$out" | grep -q "foreign" && say "$m an answer names the teacher's file: $out"

    # B. a trace made a sparse gigabyte is refused or ignored unread: warpscope stays small
    python3 - "$ws" "$hostile/replaces_its_trace.cu" "$tmp/sparse.out" <<'PY' || fail=1
import resource, subprocess, sys
ws, cu, out = sys.argv[1:4]
r = subprocess.run([ws, "stats", "--kernel", cu, "--entry", "run(in, out, n)", "--define", "SPARSE", "--n", "256", "--data", "ones"],
                   capture_output=True, text=True)
open(out, "w").write(r.stdout + r.stderr)
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
if rss > (400 << 20):
    print("FAIL: a sparse trace made warpscope take %d MiB: %s" % (rss >> 20, (r.stdout + r.stderr).strip()[:300]))
    sys.exit(1)
if r.returncode not in (0, 2) or (r.returncode == 0 and "result 256," not in r.stdout):
    print("FAIL: a sparse trace: exit %d: %s" % (r.returncode, (r.stdout + r.stderr).strip()[:300]))
    sys.exit(1)
PY
done
unset WARPSCOPE_SANDBOX_OFF

# B. one deadline for a whole check: a file slow at each load (6 s) cannot take it once per order
# (fifteen loads, 90 s): the search loads it once for all its orders, so it runs in about two
# loads' time and passes; where the search needs a load per order, the check's one deadline
# stops it in about a minute, and says so
start=$(date +%s)
out=$(timeout 200 "$ws" stats --kernel "$hostile/slow_at_each_load.cu" --entry 'run(in, out, n)' --n 256 --data ones --schedule adversarial 2>&1)
rc=$?
took=$(( $(date +%s) - start ))
case $rc in
0) [ $took -le 30 ] || say "a file slow at each load under --schedule adversarial passed after $took s: a load per order?" ;;
2) echo "$out" | grep -q "slow_at_each_load.cu: .*adversarial" || say "the check's deadline is not said: $out" ;;
*) say "a file slow at each load under --schedule adversarial exited $rc after $took s: $(echo "$out" | head -2)" ;;
esac
[ $took -le 75 ] || say "a file slow at each load under --schedule adversarial took $took s (one deadline for the check: 60 s)"

# B. learner code never runs as root: where no unprivileged user works, refused unless --unsafe
if [ "$(id -u)" -eq 0 ]; then
    out=$(WARPSCOPE_SANDBOX_OFF=nobody "$ws" stats --kernel "$own/one_block_sum.cu" --entry 'k<<<1, 256>>>(in, out, n)' --n 256 --data ones 2>&1)
    rc=$?
    [ $rc -eq 2 ] && echo "$out" | grep -q "runs as root .*--unsafe" || say "as root without nobody a file ran, or was refused unclearly (exit $rc): $out"
    [ "$(echo "$out" | wc -l)" -eq 1 ] || say "the refusal as root is more than one line: $out"
    out=$(WARPSCOPE_SANDBOX_OFF=nobody "$ws" stats --kernel "$own/one_block_sum.cu" --entry 'k<<<1, 256>>>(in, out, n)' --n 256 --data ones --unsafe 2>&1)
    echo "$out" | grep -q "^result 256," || say "as root with --unsafe the file did not run: $out"
fi
exit $fail
