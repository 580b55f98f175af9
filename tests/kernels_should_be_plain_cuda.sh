#!/bin/sh
# The ladder's kernel files are the CUDA a student reads: no instrumentation type, no macro of the
# emulator, no header of warpscope's in them (the front end rewrites them at build time). Each
# name below is one the traced builds give (trace/capture/ws_cuda.h, ladder_launch.h); the header
# comment (lines starting " *") may speak of them.
# usage: kernels_should_be_plain_cuda.sh ROOT
root=$1
fail=0
n=0
for f in "$root"/kernels/*.cu; do
    n=$((n + 1))
    for word in global_ptr shared_array shared_volatile shared_plain 'reg<' as_float4 WS_LAUNCH WS_LADDER ws_ '#include'; do
        hits=$(grep -n -- "$word" "$f" | grep -v '^[0-9]*: \*')
        if [ -n "$hits" ]; then
            echo "FAIL: $(basename "$f") holds $word (not plain CUDA): $hits"
            fail=1
        fi
    done
done
[ "$n" -ge 13 ] || { echo "FAIL: only $n kernel files"; fail=1; }
[ $fail = 0 ] && echo "ok: $n kernel files, plain CUDA"
exit $fail
