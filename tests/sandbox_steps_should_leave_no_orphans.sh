#!/bin/sh
# A learner's file traced in the sandbox leaves no process behind: bubblewrap's process inside its
# PID namespace outlives the bwrap warpscope waits for, and an orphan goes to the nearest subreaper,
# else to PID 1; where PID 1 reaps nothing (a container), each step left a zombie counted against
# nobody's RLIMIT_NPROC until no sandbox could start. Here this test is the subreaper: whatever
# warpscope leaves is reparented to it and seen. $1: warpscope.
ws=$1
command -v python3 >/dev/null 2>&1 || { echo "skipped: no python3"; exit 77; }
exec python3 - "$ws" <<'PYEOF'
import ctypes, os, subprocess, sys, tempfile, time
ws = sys.argv[1]
PR_SET_CHILD_SUBREAPER = 36
if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
    print("skipped: cannot become a subreaper"); sys.exit(77)
d = tempfile.mkdtemp()
src = os.path.join(d, "k.cu")
open(src, "w").write("""__global__ void k(const float *in, float *out, int n) {
    __shared__ float s[64];
    int t = threadIdx.x;
    s[t] = t < n ? in[t] : 0;
    __syncthreads();
    for (int d = 32; d > 0; d >>= 1) { if (t < d) s[t] += s[t + d]; __syncthreads(); }
    if (t == 0) out[0] = s[0];
}
""")
env = dict(os.environ, XDG_CACHE_HOME=os.path.join(d, "cache"))
fail = 0
for i in range(3):  # a cold build (front end, compiler, run) and cached runs
    p = subprocess.run([ws, "stats", "--kernel", src, "--entry", "k<<<1,64>>>(in,out,n)", "--n", "64", "--data", "ones"],
                       env=env, capture_output=True, text=True, timeout=300)
    if p.returncode != 0 or "result 64," not in p.stdout:
        print(f"FAIL: run {i}: exit {p.returncode}: {p.stdout[-300:]} {p.stderr[-300:]}"); fail = 1
    time.sleep(0.3)
    left = []
    while True:
        try:
            pid, st = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if pid == 0:
            break
        left.append(pid)
    if left:
        print(f"FAIL: run {i} left {len(left)} processes behind for this subreaper to reap (pids {left})"); fail = 1
    else:
        print(f"ok   run {i}: the sum of 64 ones is 64 and nothing was left behind")
subprocess.run(["rm", "-rf", d])
sys.exit(fail)
PYEOF
