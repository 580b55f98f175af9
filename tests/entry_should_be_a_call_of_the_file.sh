#!/bin/sh
# --entry is text from outside the learner's file, spliced after it: the front end takes only calls
# of the file's own functions (a launch K<<<grid, block[, shmem]>>>(args) or a host function; the
# exercises' two launches joined by a comma) whose arguments are built of in, out, n, h_in,
# numbers, operators, casts and sizeof. Each hostile entry a tester tried (a system() call beside
# the launch, after it, in a lambda, added to the call) is refused with one line naming what is
# not allowed, and the marker its payload would make is never made; the entries people write
# still build, and a two-launch entry still sums n ones to n.
ws="$1"
fe="$2"
src="$3"
[ -x "$fe" ] || { echo "SKIP: no front end ($fe): this build has no libclang"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache"
fail=0
say() { echo "FAIL: $*"; fail=1; }

cat >"$tmp/k.cu" <<'CU'
#include <stdlib.h>
// each block sums its 256 elements in shared memory; thread 0 adds the sum into out[0]
__global__ void k(const float *in, float *out, unsigned n)
{
    __shared__ float s[256];
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned w = blockDim.x / 2; w > 0; w >>= 1) {
        if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(&out[0], s[0]);
}
template <unsigned B>
__global__ void kt(const float *in, float *out, unsigned n) { if (blockIdx.x * B + threadIdx.x == 0) out[1] = in[0]; }
// a host function that launches, and returns a value (which --entry may not add to)
float reduce(float *out, float *in, unsigned n) { k<<<(n + 255) / 256, 256>>>(in, out, n); return 0.0f; }
template <int B>
float host_sum(const float *h_in, unsigned n) { float s = 0; for (unsigned i = 0; i < n; i++) s += h_in[i]; return s + B * 0; }
int global_count = 3;
#define PAYLOAD system("touch MARKER")
CU
sed -i "s|MARKER|$tmp/X|" "$tmp/k.cu"

# refused(ENTRY WHAT): warpscope exits 2 with one line: --entry:1:COL: error: ... WHAT is not allowed here
refused() {
    "$ws" stats --kernel "$tmp/k.cu" --entry "$1" --n 256 >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ "$rc" = 2 ] || { say "--entry '$1' exited $rc, not 2"; cat "$tmp/err"; return; }
    [ "$(wc -l <"$tmp/err")" = 1 ] || { say "--entry '$1': not one line on stderr"; cat "$tmp/err"; }
    grep -Fq -- "--entry:1:" "$tmp/err" && grep -Fq "error: only calls of functions of $tmp/k.cu, with in, out, n, h_in and numbers; $2 is not allowed here" "$tmp/err" ||
        { say "--entry '$1' is not refused naming $2:"; cat "$tmp/err"; }
}
# the tester's four
refused "system(\"touch $tmp/X\"), k<<<1,256>>>(in,out,n)" '`system`'
refused "(k<<<1,256>>>(in,out,n), system(\"touch $tmp/X\"))" '`system`'
refused "[]{system(\"touch $tmp/X\"); return 0;}()" 'a lambda'
refused "reduce(out, in, n) + system(\"touch $tmp/X\")" '`system`'
# and their cousins
refused 'reduce(out, in, PAYLOAD)' '`system`'
refused "k<<<1, 256>>>(in, out, n)); system(\"touch $tmp/X\"); (0" "anything after the call's closing parenthesis"
refused "k<<<system(\"touch $tmp/X\"), 256>>>(in, out, n)" '`system`'
refused 'reduce(out, in, n = 0)' 'an assignment (`=`)'
refused 'reduce(out, in, (n, 1))' 'the comma operator inside an argument'
refused 'reduce(out, in, global_count)' '`global_count`'
refused 'reduce(out, in, n) + 1' '`+` around the call'
refused 'reduce(out, in, (unsigned)host_sum<1>(h_in, n))' 'a call of `host_sum` inside an argument'
refused 'reduce(out, in, sizeof "n")' 'a string literal'
refused 'reduce(out, in, n) _Pragma("once")' '`_Pragma`'
# a newline would open a preprocessor directive
"$ws" stats --kernel "$tmp/k.cu" --entry "$(printf 'reduce(out, in, n)\n#include "/etc/passwd"')" --n 256 >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "a control character (0x0a) is not allowed here" "$tmp/err" || { say "an entry of two lines is not refused:"; cat "$tmp/err"; }
[ -e "$tmp/X" ] && say "an entry's payload ran: $tmp/X exists"

# the entries people write: each rewritten by the front end
for e in 'k<<<(n + 255) / 256, 256>>>(in, out, n)' 'k<<<n / 256, 256, 256 * sizeof(float)>>>(in, out, n)' \
         'kt<256><<<1, 256>>>(in, out, (unsigned)n - 1)' 'reduce(out, in, n)' 'host_sum<2>(h_in, n > 4 ? 4 : n)' \
         'k<<<(n + 511) / 512, 256>>>(in, out, n), k<<<1, 256>>>(out, out, (n + 511) / 512)' '(reduce(out, in + 0, static_cast<unsigned>(n)))' \
         'k<<<dim3(n / 256), dim3(256, 1)>>>(in, out, -(-n))' 'k<<<BLOCKS, 256>>>(in, out, n)'; do
    "$fe" "$tmp/k.cu" "$src/trace/capture/own/include" "$tmp/k.cpp" "$e" BLOCKS=4 2>"$tmp/err" || { say "--entry '$e' is refused:"; cat "$tmp/err"; }
done
# and run: two launches joined by a comma, as the exercises' entries are (n ones sum to n)
"$ws" stats --json --kernel "$tmp/k.cu" --entry 'reduce(out + 1, in, 1), k<<<(n + 255) / 256, 256>>>(in, out, n)' --n 1000 --data ones >"$tmp/r.json" 2>"$tmp/err" ||
    { say "the two-call entry did not run:"; cat "$tmp/err"; }
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["result"] == 1000 and d["passes"] == 2, (d["result"], d["passes"])' "$tmp/r.json" ||
    say "the two-call entry's sum or launches"
[ $fail = 0 ] && echo "entry is a call of the file: ok"
exit $fail
