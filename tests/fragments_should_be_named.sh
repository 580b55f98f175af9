#!/bin/sh
# A code block that is not a whole kernel file (a few lines of a kernel, a shell command, a
# program's output, a host snippet launching another block's kernel) is said to be a fragment in
# one line, exit 2, never clang's syntax error at 1:1; a whole kernel with an error of its own keeps
# the error at its line.
ws="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache"
fail=0
printf 'if ((tid %% (2 * stride)) == 0)\n    sdata[tid] += sdata[tid + stride];\n' >"$tmp/lines.cu"
printf 'nvcc -o reduce reduce.cu\nnvprof ./reduce\n' >"$tmp/command.cu"
printf '==1234== Profiling result:\nTime(%%)  Time  Calls  Avg  Name\n 100.00%%  1.0ms  1  1.0ms  reduce0\n' >"$tmp/output.cu"
printf '1  for (int i = 0; i < tid; i++)\n2      sum += a[i];\n' >"$tmp/numbered.cu"
printf 'int main()\n{\n    index_print_kernel<<<4, 128>>>();\n    return 0;\n}\n' >"$tmp/host.cu"
for f in lines command output numbered host; do
    "$ws" stats --kernel "$tmp/$f.cu" --entry 'k<<<1, 32>>>(in, out)' --n 32 >/dev/null 2>"$tmp/err"
    rc=$?
    [ $rc = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "$f.cu: a fragment, not a whole kernel file" "$tmp/err" ||
        { echo "FAIL: $f.cu (exit $rc) was not named a fragment:"; cat "$tmp/err"; fail=1; }
done
# a whole kernel with a mistake of its own: the mistake, at its line
printf '__global__ void k(float *in, float *out)\n{\n    out[0] = in[0] + undeclared_name;\n}\n' >"$tmp/whole.cu"
"$ws" stats --kernel "$tmp/whole.cu" --entry 'k<<<1, 32>>>(in, out)' --n 32 >/dev/null 2>"$tmp/err"
grep -q 'whole.cu:3:' "$tmp/err" && ! grep -q fragment "$tmp/err" || { echo "FAIL: a whole kernel's error was not at its line:"; cat "$tmp/err"; fail=1; }
[ $fail = 0 ] && echo "fragments: named as fragments"
exit $fail
