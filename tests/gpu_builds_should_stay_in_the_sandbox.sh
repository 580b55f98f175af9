#!/bin/sh
# nvcc's build of a learner's file (--backend gpu, verify --kernel, bench --kernel) runs in the same
# sandbox as the emulator's: a file that names a host file in an #include only nvcc's device pass
# opens (under __CUDA_ARCH__, which the front end's host parse never reads), by a macro, gets
# neither a root-only (0600) file nor a world-readable one outside its folder: refused, and no word
# of either comes back in the error. No GPU is needed: it is the build. Skipped (77) without nvcc.
. "$(dirname "$0")/own_test_setup.sh"
nvcc=${WARPSCOPE_NVCC:-nvcc}
command -v "$nvcc" >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ] || { echo "SKIP: no nvcc here"; exit 77; }
"$ws" --version | grep -q "^CUDA: in this build" || { echo "SKIP: this warpscope is built without CUDA (-DWS_CUDA=OFF)"; exit 77; }
chmod 755 "$tmp"
mkdir -m 755 "$tmp/host"
printf 'WSSECRETWORD x;\n' >"$tmp/host/root_only"
chmod 600 "$tmp/host/root_only"
printf 'WSPUBLICWORD y;\n' >"$tmp/host/everyones"
chmod 644 "$tmp/host/everyones"
mkdir "$tmp/class"
for f in root_only everyones; do
    cat >"$tmp/class/$f.cu" <<CU
#ifdef __CUDA_ARCH__
#define F "$tmp/host/$f"
#include F
#endif
__global__ void k(const float *in, float *out, unsigned n) { if (threadIdx.x == 0) out[0] = in[0]; }
CU
    out=$(cd "$tmp/class" && "$ws" capture --backend gpu --kernel "$f.cu" --entry 'k<<<1, 32>>>(in, out, n)' --n 32 -o "$tmp/t.wstrace" 2>&1)
    rc=$?
    echo "$out" | grep -q "WSSECRETWORD\|WSPUBLICWORD" && { echo "FAIL: $f: the host file's text came back: $out"; fail=1; }
    [ $rc -eq 2 ] || { echo "FAIL: $f: exit $rc, not 2 (refused as the file's error): $out"; fail=1; }
    echo "$out" | grep -q "$f.cu:2:.*No such file" || { echo "FAIL: $f: not refused at its include, as a file nvcc cannot see: $out"; fail=1; }
done
exit $fail
