#!/bin/sh
# --kernel: the course notes' code blocks (tests/own/seed*.cu, copied unchanged: a kernel block
# with the host block after it) are traced and judged; a learner's mistakes are reported at their
# line; a second run does not compile again. Expected values come from the data (--data ones: the
# sum is n) and from the addressing formula, not from warpscope.
. "$(dirname "$0")/own_test_setup.sh"

# runs warpscope, wants exit code $1 and a stderr line matching $2 (grep -E)
expect() {
    code="$1" pattern="$2"
    shift 2
    "$ws" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ "$rc" = "$code" ] || { echo "FAIL: $* exited $rc, not $code"; cat "$tmp/err"; fail=1; return; }
    [ -z "$pattern" ] || grep -Eq "$pattern" "$tmp/err" || { echo "FAIL: $*: no line matching '$pattern':"; cat "$tmp/err"; fail=1; }
    [ "$(wc -l <"$tmp/err")" -le 1 ] || { echo "FAIL: $*: more than one line on stderr"; cat "$tmp/err"; fail=1; }
}

# seed 001: reduction_kernel with extern __shared__ and its while (size > 1) host loop; n = 65536
# ones: two launches (65536 -> 256 -> 1), the sum 65536
"$ws" stats --json --kernel "$own/seed001_reduction.cu" --entry 'reduction(out, in, 256, n)' --n 65536 --data ones >"$tmp/r.json" ||
    { echo "FAIL: seed 001 reduction"; fail=1; }
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["result"]==65536 and d["passes"]==2, d' "$tmp/r.json" ||
    { echo "FAIL: seed 001 reduction: sum or launches"; fail=1; }

# seed 004: reduce0, launched from --entry, THREAD_PER_BLOCK from --define. Interleaved addressing
# with tid % (2s): counted from the formula, a warp diverges at step s when some but not all of its
# lanes l have (32 w + l) % 2s == 0; each divergent step is 3 warp instructions (two loads, a
# store); the active lanes' words are 2s apart, so no two share a bank below s = 16 and at most one
# lane of a warp works above: no bank conflicts.
"$ws" stats --json --kernel "$own/seed004_reduce0.cu" --define THREAD_PER_BLOCK=256 --entry 'reduce0<<<1, 256>>>(in, out)' \
    --n 256 --data ones >"$tmp/z.json" || { echo "FAIL: seed 004 reduce0"; fail=1; }
python3 "$own/reduce0_counts.py" "$tmp/z.json" || { echo "FAIL: seed 004 reduce0: counters against the addressing formula"; fail=1; }

# seed 001's naive kernel, run in place as its figure draws it: it races
expect 0 "" hazards --kernel "$own/seed001_naive.cu" --entry 'naive_reduction(in, in, 256, n)' --result in --n 1024
grep -Eq "^[0-9]+ hazards" "$tmp/out" || { echo "FAIL: the naive in-place kernel is not flagged as racing"; cat "$tmp/out"; fail=1; }

# the result is out[0] when the entry returns, never what a host function returns (an int status)
{ cat "$own/one_block_sum.cu"; echo 'int run(const float *in, float *out, unsigned n) { k<<<1, 256>>>(in, out, n); return 1; }'; } >"$tmp/status.cu"
"$ws" stats --json --kernel "$tmp/status.cu" --entry 'run(in, out, n)' --n 200 --data ones >"$tmp/s.json" 2>/dev/null
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["result"]==200, d["result"]' "$tmp/s.json" ||
    { echo "FAIL: a host function's return status was taken as the result"; fail=1; }
# several blocks, nothing summing their partials: the report says out[0] is block 0's alone
expect 1 "out\[0\] is block 0's partial alone: the last launch's 4 blocks" stats --kernel "$own/seed004_reduce0.cu" \
    --define THREAD_PER_BLOCK=256 --entry 'reduce0<<<n / 256, 256>>>(in, out)' --n 1024 --data ones

# __ldg and a cache-hinted load are loads like any other: the sum of n ones is n
sed -e 's/s\[t\] = t < n ? in\[t\] : 0.0f;/s[t] = t < n ? __ldg(\&in[t]) : 0.0f;/' -e 's/out\[0\] = s\[0\];/out[0] = s[0] + 0.0f * __ldcs(in);/' \
    "$own/one_block_sum.cu" >"$tmp/ldg.cu"
grep -q "__ldg(&in\[t\])" "$tmp/ldg.cu" && grep -q "__ldcs(in)" "$tmp/ldg.cu" || { echo "FAIL: the __ldg copy was not made"; fail=1; }
"$ws" stats --json --kernel "$tmp/ldg.cu" --entry 'k<<<1, 256>>>(in, out, n)' --n 200 --data ones >"$tmp/ldg.json" 2>"$tmp/err" &&
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["result"]==200, d["result"]' "$tmp/ldg.json" ||
    { echo "FAIL: __ldg"; cat "$tmp/err"; fail=1; }

# the device a file asks about is the card of --card: its SMs as NVIDIA publishes them (H100 SXM5 132,
# H100 PCIe 114, GTX 1060 10), and the occupancy API's blocks per SM from the threads an SM holds
# (2048 on Hopper, 2048 on Pascal: 8 blocks of 256)
{ cat "$own/one_block_sum.cu"; cat <<'EOF'
static void put(float *out, float v) { cudaMemcpy(out, &v, sizeof v, cudaMemcpyHostToDevice); }
void sms(const float *in, float *out, unsigned n)
{
    int v = 0;
    cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0);
    k<<<1, 256>>>(in, out, n);
    put(out, (float)v);
}
void props(const float *in, float *out, unsigned n)
{
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    k<<<1, 256>>>(in, out, n);
    put(out, (float)p.multiProcessorCount);
}
void occupancy(const float *in, float *out, unsigned n)
{
    int blocks = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, 256, 0);
    k<<<1, 256>>>(in, out, n);
    put(out, (float)blocks);
}
EOF
} >"$tmp/device.cu"
for c in "h100 sms 132" "h100pcie props 114" "gtx1060 sms 10" "h100 occupancy 8" "gtx1060 occupancy 8"; do
    set -- $c
    "$ws" stats --json --kernel "$tmp/device.cu" --entry "$2(in, out, n)" --card "$1" --n 256 >"$tmp/d.json" 2>/dev/null
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["result"]==float(sys.argv[2]), d["result"]' "$tmp/d.json" "$3" ||
        { echo "FAIL: $2 on --card $1 is not $3"; fail=1; }
done

# CUDA the emulator does not model yet is named at its line, never clang's raw "undeclared identifier"
printf '__global__ void k(float *out) { out[0] = 1; }\nvoid run(float *out)\n{\n    float *m;\n    cudaMallocManaged(&m, 4);\n    k<<<1, 32>>>(out);\n}\n' >"$tmp/managed.cu"
expect 2 "managed.cu:5:[0-9]+: error: warpscope does not model cudaMallocManaged yet: use cudaMalloc" stats --kernel "$tmp/managed.cu" --entry 'run(out)'
printf '__global__ void k(float *out) { out[0] = 1; }\nvoid run(float *out)\n{\n    cudaStream_t s;\n    cudaStreamCreate(&s);\n    k<<<1, 32>>>(out);\n}\n' >"$tmp/stream.cu"
expect 2 "stream.cu:5:[0-9]+: error: warpscope does not model cudaStreamCreate yet" stats --kernel "$tmp/stream.cu" --entry 'run(out)'

printf '__global__ void k(const float *in, float *out)\n{\n    unsigned int bits = __float_as_uint(in[threadIdx.x]);\n    out[0] = (float)bits;\n}\n' >"$tmp/intrinsic.cu"
expect 2 "intrinsic.cu:3:[0-9]+: error: not modelled yet: __float_as_uint" stats --kernel "$tmp/intrinsic.cu" --entry 'k<<<1, 32>>>(in, out)'
# seed 002's host loop does not compile as C++: the compiler's own line, in the learner's file
expect 2 "seed002_reduce4.cu:69:[0-9]+: error" stats --kernel "$own/seed002_reduce4.cu" --define BLOCK_SIZE=256 --entry 'RuntimeOfReduce4(h_in, 1, n)'
expect 2 "^warpscope: .*syntax_error.cu:2:[0-9]+: error: expected ';'" stats --kernel "$own/syntax_error.cu" --entry 'k<<<1, 32>>>(in, out)'

# a barrier left out: wrong for some data, and flagged
"$ws" stats --kernel "$own/barrier_left_out.cu" --entry 'k<<<1, 256>>>(in, out)' --n 256 >"$tmp/b.txt" 2>/dev/null
grep -q "WRONG" "$tmp/b.txt" || { echo "FAIL: the kernel without its barrier gave the right sum"; fail=1; }
"$ws" hazards --kernel "$own/barrier_left_out.cu" --entry 'k<<<1, 256>>>(in, out)' --n 256 >"$tmp/h.txt" 2>/dev/null
grep -Eq "^[0-9]+ hazards.*" "$tmp/h.txt" && grep -q "shared" "$tmp/h.txt" || { echo "FAIL: the missing barrier is not flagged"; cat "$tmp/h.txt"; fail=1; }

# out of bounds, at the line, with the thread
expect 2 "shared_past_the_end.cu:4: block 0, thread 255 .* writes element 256 of a __shared__ array of 256 elements" \
    stats --kernel "$own/shared_past_the_end.cu" --entry 'k<<<1, 256>>>(in, out)' --n 256
expect 2 "global_past_the_end.cu:4: .*global element 300, beyond a buffer of 256 elements" \
    stats --kernel "$own/global_past_the_end.cu" --entry 'k<<<1, 256>>>(in, out)' --n 256
# a loop that never ends, and a barrier only some threads reach
expect 2 "never_ends.cu:4: thread 0 of block 0 has turned this loop" stats --kernel "$own/never_ends.cu" --entry 'k<<<1, 256>>>(in, out)' --n 256
expect 2 "barrier_in_a_branch.cu:3: block 0: __syncthreads\(\) reached by 32 of its 64 threads" \
    stats --kernel "$own/barrier_in_a_branch.cu" --entry 'k<<<1, 64>>>(in, out)'
# the learner's program runs apart: a null pointer in its host code or a call of exit() is said,
# and warpscope itself goes on to exit 2 with one line
# (under ASan its handler reports the fault itself, in the child)
[ -n "$WS_SANITIZE" ] || expect 2 "host_null_pointer.cu: the program stopped with signal 11" stats --kernel "$own/host_null_pointer.cu" --entry 'run(in, out)'
expect 2 "calls_exit.cu: the program ended .* does it call exit" stats --kernel "$own/calls_exit.cu" --entry 'run(in, out)'
# --define: no silent cut or drop: a value past 255 bytes, more than 48 macros, or a name that is not one
long=$(python3 -c 'print("1" * 300)')
many=$(python3 -c 'print(",".join("D%d=1" % i for i in range(49)))')
expect 2 "define X: 302 bytes, more than the 255" stats --kernel "$own/seed004_reduce0.cu" --define "THREAD_PER_BLOCK=256,X=$long" --entry 'reduce0<<<1, 256>>>(in, out)'
expect 2 "define: 49 macros, more than the 48" stats --kernel "$own/seed004_reduce0.cu" --define "$many" --entry 'reduce0<<<1, 256>>>(in, out)'
expect 2 "a macro is NAME or NAME=VALUE" stats --kernel "$own/seed004_reduce0.cu" --define 'THREAD_PER_BLOCK=256,1X=2' --entry 'reduce0<<<1, 256>>>(in, out)'
# no entry, a missing file, --version beside --kernel
expect 2 "say how to run it: --entry" stats --kernel "$own/seed004_reduce0.cu"
expect 2 "cannot open" stats --kernel "$tmp/none.cu" --entry 'k<<<1, 32>>>(in, out)'
expect 2 "not both" stats --kernel "$own/seed004_reduce0.cu" --version v1

# atomics on global memory, shuffles of every kind, float4 loads and a ticket that wraps for the
# next launch: the sum of n ones is n
for k in "atomic_add_per_block.cu|reduce_atomic<<<(n + 255) / 256, 256>>>(in, out, n)|5000" \
         "shuffles_and_float4.cu|reduce_shfl<<<4, 128>>>(in, out, n)|4096" "last_block_ticket.cu|run(in, out, n)|1000"; do
    f=${k%%|*} rest=${k#*|}
    entry=${rest%|*} n=${rest##*|}
    "$ws" stats --json --kernel "$own/$f" --entry "$entry" --n "$n" --data ones >"$tmp/a.json" 2>"$tmp/err" ||
        { echo "FAIL: $f"; cat "$tmp/err"; fail=1; continue; }
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["result"]==int(sys.argv[2]), d["result"]' "$tmp/a.json" "$n" ||
        { echo "FAIL: $f: not the sum of $n ones"; fail=1; }
done
expect 2 "atomic_on_shared.cu:6: an atomic on __shared__ memory is not modelled" stats --kernel "$own/atomic_on_shared.cu" --entry 'k<<<1, 32>>>(in, out)' --n 32
# the watched register is the kernel's first float (sum): an event on every line that assigns it,
# found in the file's text, and on no other line
"$ws" capture --kernel "$own/shuffles_and_float4.cu" --entry 'reduce_shfl<<<4, 128>>>(in, out, n)' --n 4096 -o "$tmp/s.json" >/dev/null 2>&1 ||
    { echo "FAIL: capture shuffles_and_float4.cu"; fail=1; }
python3 - "$tmp/s.json" "$own/shuffles_and_float4.cu" <<'PY' || { echo "FAIL: the watched register's lines"; fail=1; }
import json, re, sys
ev = json.load(open(sys.argv[1]))["events"]
src = open(sys.argv[2]).read().splitlines()
want = {i + 1 for i, l in enumerate(src) if re.search(r"\bsum (\+)?= ", l) and "threadIdx.x % 32 == 1" not in l}
got = {e["l"] for e in ev if e["k"] == "register" and max(e["a"]) < 32}  # id 0 (schema 8): the watched register
assert got == want, (sorted(got), sorted(want))
# the kernel's other floats are recorded under ids of their own (lane + 32 x id), each lane its own lane
assert all(a % 32 == l for e in ev if e["k"] == "register" for l, a in zip([l for l in range(32) if e["m"] >> l & 1], e["a"]))
PY

# sum++, ++sum and sum-- step the watched register and are recorded at their lines, as sum += 1
# is. Each thread adds its two ones and steps once after each (4), then ++ (5), -- (4) and
# y = sum++ (y 4, sum 5): out = 5 + 4 - 4 = 5, and lane 0's register holds 0 1 2 3 4 5 4 5 in turn
"$ws" capture --kernel "$own/register_steps.cu" --entry 'k<<<1, 32>>>(in, out, n)' --n 64 --data ones -o "$tmp/r.json" >/dev/null 2>&1
python3 - "$tmp/r.json" "$own/register_steps.cu" <<'PY' || { echo "FAIL: the register's ++ and --"; fail=1; }
import json, re, sys
d = json.load(open(sys.argv[1]))
src = open(sys.argv[2]).read().splitlines()
want = {i + 1 for i, l in enumerate(src) if re.search(r"\bsum (\+)?= |sum(\+\+|--)|(\+\+|--)sum", l)}
ev = [e for e in d["events"] if e["k"] == "register" and max(e["a"]) < 32]  # the watched register (id 0)
assert {e["l"] for e in ev} == want, (sorted({e["l"] for e in ev}), sorted(want))
assert [e["v"][0] for e in ev] == [0, 1, 2, 3, 4, 5, 4, 5], [e["v"][0] for e in ev]
assert all(v == 5 for e in d["events"] if e["k"] == "global_store" for v in e["v"])
PY

# a second run does not compile again: the cache holds one object per file and entry
n1=$(ls "$XDG_CACHE_HOME/warpscope"/*.so 2>/dev/null | wc -l)
"$ws" stats --kernel "$own/seed001_reduction.cu" --entry 'reduction(out, in, 256, n)' --n 65536 --data ones >/dev/null 2>&1
n2=$(ls "$XDG_CACHE_HOME/warpscope"/*.so 2>/dev/null | wc -l)
[ "$n1" = "$n2" ] && [ "$n1" -gt 0 ] || { echo "FAIL: a second run compiled again ($n1 then $n2 objects)"; fail=1; }
"$ws" render --kernel "$own/seed004_reduce0.cu" --define THREAD_PER_BLOCK=256 --entry 'reduce0<<<1, 256>>>(in, out)' --step 3 \
    -o "$tmp/k.png" >/dev/null 2>&1 || { echo "FAIL: render --kernel"; fail=1; }
[ -s "$tmp/k.png" ] || { echo "FAIL: render --kernel wrote no picture"; fail=1; }
# a saved trace of one's own file shows its source when the file lies beside it (the trace names it)
mkdir -p "$tmp/saved"
"$ws" capture --kernel "$own/seed004_reduce0.cu" --define THREAD_PER_BLOCK=256 --entry 'reduce0<<<1, 256>>>(in, out)' \
    -o "$tmp/saved/r0.wstrace" >/dev/null 2>&1 || { echo "FAIL: capture seed 004 to a file"; fail=1; }
"$ws" render "$tmp/saved/r0.wstrace" --step 3 -o "$tmp/alone.json" >/dev/null 2>&1
cp "$own/seed004_reduce0.cu" "$tmp/saved/"
"$ws" render "$tmp/saved/r0.wstrace" --step 3 -o "$tmp/beside.json" >/dev/null 2>&1
grep -q "sdata\[tid\] += sdata\[tid + s\];" "$tmp/beside.json" || { echo "FAIL: the saved trace's source beside it is not shown"; fail=1; }
grep -q "sdata\[tid\] += sdata\[tid + s\];" "$tmp/alone.json" && { echo "FAIL: a source shown that was not there"; fail=1; }

[ $fail = 0 ] && echo "own kernels: ok"
exit $fail
