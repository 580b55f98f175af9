#!/bin/sh
# The lab's GPU, on a machine with one:
#   tools/device-gpu-lab.sh prepare [BUILD]   here: the server packed as tools/device-serve.sh prepares it
#   tools/device-gpu-lab.sh OUT files         there, from the repository root (as root): every exercise's
#                       model solution timed by `warpscope bench --kernel` (bench.txt) and by a server's
#                       Check (`serve --gpu`, gpu.txt: the two figures side by side), then files a student
#                       could write: exercise 02's solution that skips the blocks past 16384 (right in the
#                       emulator, wrong on the card), the same spinning there for ever (stopped at
#                       --gpu-limit, the next timing made after it), and the sandbox's view from the GPU's
#                       run (a file that tries to open /etc/passwd and a socket from its host code)
#   tools/device-gpu-lab.sh OUT phases   there: where one timing's time goes (phases.txt): a process
#                       that starts CUDA and times nothing, then exercise 06's and 10's model solutions
#                       as the server times them (--judged, 15 reps) at one tiny size and at the
#                       exercise's sizes, three times each, wall and CPU from the process's rusage
#   tools/device-gpu-lab.sh OUT scrub   there: whether a process's freed GPU memory reaches the next
#                       process as it was left (scrub.txt): one process fills 16 GiB with a pattern and
#                       ends, the next allocates 16 GiB and counts the words that still hold it, without
#                       writing them first; and the same while the first still lives
#   tools/device-gpu-lab.sh OUT lab [STUDENTS [SECONDS]]   there: `tools/load-class.py --lab --gpu` with
#                       STUDENTS (default 200) for SECONDS (default 150) against `serve --gpu` (load.txt,
#                       load.json, serve.log)
set -u
root="$PWD"
if [ "${1:-}" = prepare ]; then
    exec sh tools/device-serve.sh prepare "${2:-build}"
fi
out="$1"
what="${2:-files}"
. tools/device-serve-env.sh || exit 1
export PATH="$PATH:/usr/local/cuda/bin"
ws=$pack/bin/warpscope
{
    nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv
    nvcc --version | tail -n 2
    echo "cores: $(nproc)"
    $ws --version
} >"$out/env-$what.txt" 2>&1
if [ "$what" = scrub ]; then
    cat >/tmp/scrub.cu <<'CU'
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include <vector>
// fill: write the pattern over GiB GiB and end (or sleep first); look: allocate as much, count the pattern
__global__ void fill(unsigned *p, size_t n) { for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) p[i] = 0x5eed0000u | (unsigned)(i & 0xffff); }
__global__ void count(const unsigned *p, size_t n, unsigned long long *hits, unsigned long long *nonzero)
{
    unsigned long long h = 0, z = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        h += (p[i] & 0xffff0000u) == 0x5eed0000u;
        z += p[i] != 0;
    }
    atomicAdd(hits, h);
    atomicAdd(nonzero, z);
}
int main(int argc, char **argv)
{
    size_t gib = 16, n = gib << 28;
    unsigned *p;
    if (cudaMalloc(&p, n * 4) != cudaSuccess) { printf("cannot allocate\n"); return 1; }
    if (argv[1][0] == 'f') {
        fill<<<4096, 256>>>(p, n);
        cudaDeviceSynchronize();
        if (argc > 2) sleep(atoi(argv[2]));
        printf("filled %zu GiB\n", gib);
        return 0;
    }
    unsigned long long *c;
    cudaMalloc(&c, 16);
    cudaMemset(c, 0, 16);
    count<<<4096, 256>>>(p, n, c, c + 1);
    unsigned long long h[2];
    cudaMemcpy(h, c, 16, cudaMemcpyDeviceToHost);
    printf("a fresh allocation of %zu GiB: %llu words hold the other process's pattern, %llu words are not zero (of %zu)\n", gib, h[0], h[1], n);
    return 0;
}
CU
    {
        nvcc -O2 -o /tmp/scrub /tmp/scrub.cu 2>&1 | tail -3
        echo "### after the filling process ended"
        /tmp/scrub f && /tmp/scrub l && /tmp/scrub l
        echo "### while the filling process still lives (it sleeps 6 s after filling)"
        /tmp/scrub f 6 & sleep 3; /tmp/scrub l; wait
        nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    } >"$out/scrub.txt" 2>&1
    exit 0
fi
if [ "$what" = phases ]; then
    {
        t() { python3 -c 'import resource, subprocess, sys, time
t0 = time.time(); r = subprocess.run(sys.argv[2], shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.3f s wall, %.3f s user, %.3f s system, exit %d: %s%s" % (time.time() - t0, u.ru_utime, u.ru_stime, r.returncode, sys.argv[1],
      "" if r.returncode == 0 else " | " + r.stderr.decode()[-300:].strip()))' "$1" "$2"; }
        for i in 1 2 3; do t "CUDA started, an empty size timed (bench --versions v8 --sizes 32 --reps 1)" "$ws bench --versions v8 --sizes 32 --reps 1 --modes launch"; done
        for b in 06-grid-stride 10-last-rung; do
            e=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["exercise"]["entry"])' "lessons/exercises/$b.json")
            sol="tests/exercises/$b.solution.cu"
            $ws bench --kernel "$sol" --entry "$e" --sizes 1024 --modes launch --reps 1 >/dev/null 2>&1 # built once, into the cache
            for i in 1 2 3; do t "$b at n = 1024 (--judged, 15 reps)" "$ws bench --kernel $sol --entry '$e' --sizes 1024 --modes launch --judged --reps 15"; done
            for i in 1 2 3; do t "$b at 2^24 and 2^26 (--judged, 15 reps)" "$ws bench --kernel $sol --entry '$e' --sizes 16777216,67108864 --modes launch --judged --reps 15"; done
        done
        sol=tests/exercises/06-grid-stride.solution.cu
        for i in 1 2 3; do cp $sol /tmp/nvcc$i.cu; echo "// $i" >>/tmp/nvcc$i.cu; t "nvcc's build of exercise 06 (a new file)" "$ws bench --kernel /tmp/nvcc$i.cu --entry '$(python3 -c 'import json; print(json.load(open("lessons/exercises/06-grid-stride.json"))["exercise"]["entry"])')' --sizes 32 --modes launch --judged --reps 1"; done
    } >"$out/phases.txt" 2>&1
    exit 0
fi
token=gpu-lab-$$
rm -rf /tmp/wsstate
$ws serve --port 18080 --state /tmp/wsstate --token $token --gpu --gpu-limit 30 >"$out/serve-$what.log" 2>&1 &
server=$!
i=0
until python3 -c 'import urllib.request; urllib.request.urlopen("http://127.0.0.1:18080/api/health")' 2>/dev/null; do
    i=$((i + 1))
    [ $i -gt 100 ] && { echo "the server did not start" >>"$out/serve-$what.log"; kill $server; exit 1; }
    sleep 0.2
done

if [ "$what" = lab ]; then
    PYTHONUNBUFFERED=1 timeout $((${4:-150} + 200)) python3 tools/load-class.py --url http://127.0.0.1:18080 --token $token \
        --students "${3:-200}" --duration "${4:-150}" --lab --gpu --json "$out/load.json" >"$out/load.txt" 2>&1
    echo "load-class exit $?" >>"$out/load.txt"
    python3 -c 'import json, urllib.request; print(json.dumps(json.load(urllib.request.urlopen("http://127.0.0.1:18080/api/health")).get("gpu")))' >>"$out/load.txt" 2>&1
    kill $server
    wait $server
    exit 0
fi

# every model solution through the server, as a student's Check, while bench times the same files
python3 - "$ws" "$out" <<'PY' >"$out/gpu.txt" 2>&1
import json, os, re, subprocess, sys, time, urllib.request, urllib.error
ws, out = sys.argv[1:3]
base = "http://127.0.0.1:18080"
def call(method, path, body=None, cookie=None):
    h = {"Content-Type": "application/json", "Origin": base}
    if cookie: h["Cookie"] = cookie
    req = urllib.request.Request(base + path, data=json.dumps(body).encode() if body is not None else None, method=method, headers=h)
    try:
        r = urllib.request.urlopen(req, timeout=600); return r.status, r.read(), r.headers
    except urllib.error.HTTPError as e:
        return e.code, e.read(), e.headers
st, body, hd = call("POST", "/api/join", {"name": "device"})
cookie = hd.get("Set-Cookie").split(";")[0]
def timed(gid):
    t0 = time.time()
    while time.time() - t0 < 300:
        st, body, _ = call("GET", "/api/gpu?id=%d" % gid, cookie=cookie)
        j = json.loads(body)
        if j.get("state") not in ("queued", "running"): return j, time.time() - t0
        time.sleep(0.5)
    return {"state": "no verdict in 300 s"}, time.time() - t0
def check(number, source):
    t0 = time.time()
    st, body, _ = call("POST", "/api/check", {"exercise": number, "source": source}, cookie=cookie)
    a = json.loads(body) if body else {}
    f = a.get("files", [{}])[0]
    g = a.get("gpu", {})
    line = "check %s: %s, %s of %s goals (%.1f s); card: %s" % (number, st, f.get("met"), len(f.get("goals", [])), time.time() - t0, g.get("state"))
    if g.get("state") == "queued":
        j, dt = timed(g["id"])
        line += " -> %s in %.1f s: %s" % (j.get("state"), dt, (j.get("line") or {}).get("en") or j.get("error"))
        if j.get("card_goal"): line += " | card goal: %s" % j["card_goal"].get("en")
        return line, j
    return line, {}
import glob, os
for xf in sorted(glob.glob("lessons/exercises/*.json")) if os.environ.get("WS_HOSTILE_ONLY") != "1" else []:
    x = json.load(open(xf))
    number = os.path.basename(xf)[:2]
    sol = "tests/exercises/" + os.path.basename(xf)[:-5] + ".solution.cu"
    if not os.path.exists(sol): continue
    line, j = check(number, open(sol).read())
    print(line, flush=True)
    for s in j.get("sizes", []): print("   n = %d: %s" % (s["n"], s.get("gbs", s)), flush=True)
good = open("tests/exercises/02-v1-padding.solution.cu").read()
head = "unsigned int tid = threadIdx.x;"
# blocks past 4096: never in the emulator's sizes (256 blocks at most), always in the card's (2^22 and up)
wrong = good.replace(head, head + "\n    if (blockIdx.x >= 4096) return;", 1)
spin = good.replace(head, head + "\n    if (blockIdx.x >= 4096) { while (atomicAdd((unsigned int *)g_odata, 0u) != 12345u) {} }", 1)
for name, src in (("wrong on the card", wrong), ("spins for ever on the card", spin), ("the solution again, after", good + "\n// again\n")):
    line, j = check("02", src)
    print("%s: %s" % (name, line), flush=True)
st, body, _ = call("GET", "/api/health")
print("health:", json.loads(body).get("gpu"))
PY
# the same files by bench on the command line (the libraries beside them), sizes as the server's first and last
[ "${WS_HOSTILE_ONLY:-}" = 1 ] || {
    for xf in lessons/exercises/*.json; do
        b=$(basename "$xf" .json)
        sol="tests/exercises/$b.solution.cu"
        [ -f "$sol" ] || continue
        e=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["exercise"]["entry"])' "$xf")
        echo "### $b"
        timeout 240 $ws bench --kernel "$sol" --entry "$e" --sizes 16777216,67108864 --modes launch --reps 20 >/tmp/bench.txt 2>&1
        echo "exit $?"
        grep -E "^(n = |name|$b|.*\.solution|cub |best-read|thrust)" /tmp/bench.txt | head -n 14
    done
} >"$out/bench.txt" 2>&1
# the GPU run's sandbox: a file whose host code tries a file outside and a socket (the emulator's
# sandbox refuses both too, so bench's emulator run comes first: its words are said)
cat >/tmp/peek.cu <<'CU'
#include <cstdio>
#include <sys/socket.h>
__global__ void reduce(const float *in, float *out, unsigned int n)
{
    __shared__ float s[256];
    unsigned int t = threadIdx.x, i = blockIdx.x * 512 + t;
    s[t] = (i < n ? in[i] : 0.0f) + (i + 256 < n ? in[i + 256] : 0.0f);
    __syncthreads();
    for (unsigned int k = 128; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) atomicAdd(out, s[0]);
}
static int peek()
{
    FILE *f = fopen("/etc/passwd", "r");
    int sock = socket(AF_INET, SOCK_STREAM, 0);
    fprintf(stderr, "peek: /etc/passwd %s, a socket %s\n", f ? "OPENED" : "refused", sock >= 0 ? "MADE" : "refused");
    return 0;
}
static int peeked = peek();
CU
{
    echo "### the GPU run's view (bench --kernel /tmp/peek.cu)"
    timeout 120 $ws bench --kernel /tmp/peek.cu --entry "reduce<<<(n + 511) / 512, 256>>>(in, out, n)" \
        --sizes 16777216 --modes launch --reps 5 2>&1 | grep -E "peek|warpscope|exit" | head
} >>"$out/gpu.txt" 2>&1
kill $server
wait $server
