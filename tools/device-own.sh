#!/bin/sh
# A learner's own files on the GPU: --backend gpu, verify --kernel and bench --kernel over the
# course notes' code blocks (tests/own) and the exercises' files, then the ladder's verify.
#   tools/device-own.sh prepare   here, with a build in build/: the binary, the front end and their
#                                 libraries into .devlib, each file's rewrite into .devcache (the
#                                 device has no libclang; nvcc builds the rewrites there)
#   tools/device-own.sh OUT       on the device machine, from the repository root: results into OUT
#   tools/device-own.sh prepare bench, then tools/device-own.sh OUT bench: only bench --kernel of the
#                                 exercises' model solutions, each by its exercise's entry
set -u
root="$PWD"

# file | entry | defines | n : run by verify --kernel
verify_cases() {
    cat <<'EOF'
tests/own/seed001_reduction.cu|reduction(out, in, 256, n)||65536
tests/own/seed004_reduce0.cu|reduce0<<<1, 256>>>(in, out)|THREAD_PER_BLOCK=256|256
tests/own/shuffles_and_float4.cu|reduce_shfl<<<4, 128>>>(in, out, n)||4096
tests/own/last_block_ticket.cu|run(in, out, n)||1000
tests/own/atomic_add_per_block.cu|reduce_atomic<<<(n + 255) / 256, 256>>>(in, out, n)||5000
tests/own/seed001_naive.cu|naive_reduction(in, in, 256, n)||1024
tests/own/barrier_left_out.cu|k<<<1, 256>>>(in, out)||256
EOF
    for j in lessons/exercises/*.json; do
        b=$(basename "${j%.json}")
        python3 - "$j" "$b" <<'PY'
import json, sys
x = json.load(open(sys.argv[1]))["exercise"]
n = x.get("capture", {}).get("n", 256)
for f in ("lessons/exercises/" + sys.argv[2] + ".cu", "tests/exercises/" + sys.argv[2] + ".solution.cu"):
    print("%s|%s|%s|%s" % (f, x["entry"], ",".join(x.get("defines", [])), n))
PY
    done
}

# file | entry | n : captured on the GPU, each with a mistake warpscope must name at its line
fault_cases() {
    cat <<'EOF'
tests/own/shared_past_the_end.cu|k<<<1, 256>>>(in, out)|256
tests/own/global_past_the_end.cu|k<<<1, 256>>>(in, out)|256
tests/own/atomic_on_shared.cu|k<<<1, 32>>>(in, out)|32
tests/own/never_ends.cu|k<<<1, 256>>>(in, out)|256
tests/own/host_null_pointer.cu|run(in, out)|256
tests/own/calls_exit.cu|run(in, out)|256
tests/own/barrier_in_a_branch.cu|k<<<1, 64>>>(in, out)|64
EOF
}

# file | entry | defines : timed by bench --kernel (WS_BENCH_ONLY=PATTERN: those whose line matches)
bench_cases() {
    { cat <<'EOF'
tests/own/seed001_reduction.cu|reduction(out, in, 256, n)|
EOF
      for f in tests/exercises/*.solution.cu; do echo "$f|ENTRY|"; done; } | grep -e "${WS_BENCH_ONLY:-.}"
}

entry_of() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["exercise"]["entry"])' "lessons/exercises/$(basename "${1%.solution.cu}").json"; }

only="${2:-}"
if [ "${1:-}" = prepare ]; then
    rm -rf .devlib .devcache && mkdir -p .devlib/lib .devcache
    cp build/warpscope build/warpscope-frontend build/warpscope-run .devlib/
    ldd build/warpscope build/warpscope-run | awk '/=> \// { print $3 }' | sort -u | grep -Ev '/(libc|libm|libdl|libpthread|librt)\.so' |
        xargs -I{} cp -L {} .devlib/lib/
    export XDG_CACHE_HOME="$root/.devcache"
    [ "$only" = bench ] || verify_cases | while IFS='|' read -r f e d n; do
        ./build/warpscope capture --backend gpu --kernel "$f" --entry "$e" ${d:+--define "$d"} --n "$n" -o /tmp/devown.json >/dev/null 2>&1
        ./build/warpscope stats --kernel "$f" --entry "$e" ${d:+--define "$d"} --n "$n" >/dev/null 2>&1
    done
    [ "$only" = bench ] || fault_cases | while IFS='|' read -r f e n; do
        ./build/warpscope capture --backend gpu --kernel "$f" --entry "$e" --n "$n" -o /tmp/devown.json >/dev/null 2>&1
    done
    bench_cases | while IFS='|' read -r f e d; do
        [ "$e" = ENTRY ] && e=$(entry_of "$f")
        ./build/warpscope capture --backend gpu --kernel "$f" --entry "$e" ${d:+--define "$d"} -o /tmp/devown.json >/dev/null 2>&1
        ./build/warpscope stats --kernel "$f" --entry "$e" ${d:+--define "$d"} --n 65536 --data random-float >/dev/null 2>&1
    done
    # what tests/own_kernel_gpu.sh runs, by the paths ctest gives it
    [ "$only" = bench ] || { echo "/work/main/tests/own/seed004_reduce0.cu|reduce0<<<1, 256>>>(in, out)|THREAD_PER_BLOCK=256"
      echo "/work/main/tests/own/seed001_reduction.cu|reduction(out, in, 256, n)|"
      fault_cases | while IFS='|' read -r f e n; do echo "/work/main/$f|$e|"; done
      for j in lessons/exercises/*.json; do
          python3 -c 'import json,sys; x=json.load(open(sys.argv[1]))["exercise"]; print("/work/main/tests/exercises/%s|%s|" % (x["start"].replace(".cu", ".solution.cu"), x["entry"]))' "$j"
      done; } | while IFS='|' read -r f e d; do
        ./build/warpscope stats --kernel "$f" --entry "$e" ${d:+--define "$d"} >/dev/null 2>&1
    done
    rm -f .devcache/warpscope/*.gputrace.so .devcache/warpscope/*.gpu.so # built for no GPU here: the device builds its own
    du -sh .devlib .devcache
    exit 0
fi

out="$1"
export LD_LIBRARY_PATH="$root/.devlib/lib" XDG_CACHE_HOME="$root/.devcache" PATH="$PATH:/usr/local/cuda/bin"
ws="$root/.devlib/warpscope"
# the headers a learner's file compiles against, where a build folder keeps them
data=/tmp/wsdata
mkdir -p $data/include/trace/capture
ln -sfn "$root/assets" $data/assets
ln -sfn "$root/lessons" $data/lessons
ln -sf "$root/trace/trace.h" $data/include/trace/trace.h
ln -sf "$root/trace/capture/emu.h" "$root/trace/capture/ws_cuda.h" $data/include/trace/capture/
ln -sfn "$root/trace/capture/own" $data/include/trace/capture/own
export WARPSCOPE_DATA=$data
{ nvidia-smi --query-gpu=name,driver_version --format=csv; command -v nvcc c++; nvcc --version | tail -n 2; } >"$out/env.txt" 2>&1
if [ "$only" = bench ]; then
    bench_cases | while IFS='|' read -r f e d; do
        [ "$e" = ENTRY ] && e=$(entry_of "$f")
        echo "### $f: $e"
        timeout 200 "$ws" bench --kernel "$f" --entry "$e" ${d:+--define "$d"} --sizes 2^20,2^24 --modes launch --reps 10 >/tmp/run.txt 2>&1
        echo "exit $?"; tail -n 12 /tmp/run.txt
    done >"$out/bench.txt" 2>&1
    exit 0
fi

{
    verify_cases | while IFS='|' read -r f e d n; do
        echo "### $f"
        s=$(date +%s)
        timeout 300 "$ws" verify --kernel "$f" --entry "$e" ${d:+--define "$d"} --n "$n" >/tmp/run.txt 2>&1
        rc=$?
        grep -v '^# GPU' /tmp/run.txt | head -n 30
        echo "exit $rc; $(( $(date +%s) - s )) s"
    done
} >"$out/own.txt" 2>&1
{
    fault_cases | while IFS='|' read -r f e n; do
        echo "### $f"
        s=$(date +%s)
        timeout 120 "$ws" capture --backend gpu --kernel "$f" --entry "$e" --n "$n" -o /tmp/fault.json >/tmp/run.txt 2>&1
        rc=$?
        tail -n 3 /tmp/run.txt
        echo "exit $rc; $(( $(date +%s) - s )) s"
    done
    # a GPU trace drawn: seed 004's tree, step 3
    "$ws" render --backend gpu --kernel tests/own/seed004_reduce0.cu --define THREAD_PER_BLOCK=256 --entry 'reduce0<<<1, 256>>>(in, out)' \
        --step 3 -o "$out/gpu-seed004.png" 2>&1 | tail -n 2
    "$ws" capture --backend gpu --kernel tests/own/seed004_reduce0.cu --define THREAD_PER_BLOCK=256 --entry 'reduce0<<<1, 256>>>(in, out)' \
        -o "$out/gpu-seed004.wstrace" 2>&1 | tail -n 1
    e8=$(entry_of tests/exercises/08-last-block.solution.cu)
    "$ws" capture --backend gpu --kernel tests/exercises/08-last-block.solution.cu --entry "$e8" --n 5000 --blocks-traced 2 \
        -o "$out/gpu-last-block.wstrace" 2>&1 | tail -n 1
    "$ws" stats --backend gpu --kernel tests/own/seed004_reduce0.cu --define THREAD_PER_BLOCK=256 --entry 'reduce0<<<1, 256>>>(in, out)' --n 256 --data ones 2>&1 | head -n 30
} >>"$out/own.txt" 2>&1
{
    bench_cases | while IFS='|' read -r f e d; do
        [ "$e" = ENTRY ] && e=$(entry_of "$f")
        b=$(basename "$f" .cu)
        timeout 400 "$ws" bench --kernel "$f" --entry "$e" ${d:+--define "$d"} --sizes 2^16,2^20,2^24 --modes launch --reps 10 \
            --json "/tmp/bench-$b.json" >/tmp/run.txt 2>&1
        rc=$?
        tail -n 40 /tmp/run.txt
        echo "exit $rc"
    done
} >>"$out/own.txt" 2>&1
# nvcc's build of a learner's file, cold and from the cache, and the GPU capture's time
{
    echo "### times: capture --backend gpu of seed 004, cold (nvcc) then cached, three times each"
    for k in 1 2 3; do
        rm -f "$XDG_CACHE_HOME"/warpscope/*.gputrace.so
        for c in cold cached; do
            s=$(date +%s%N)
            "$ws" capture --backend gpu --kernel tests/own/seed004_reduce0.cu --define THREAD_PER_BLOCK=256 --entry 'reduce0<<<1, 256>>>(in, out)' \
                -o /tmp/t.wstrace >/dev/null 2>&1
            echo "$c: $(( ($(date +%s%N) - s) / 1000000 )) ms"
        done
    done
} >>"$out/own.txt" 2>&1
# the gpu-labelled test, at the paths ctest gives it
mkdir -p /work && { [ -e /work/main ] || ln -s "$root" /work/main; }
{ echo "### tests/own_kernel_gpu.sh"; WS_GPU_TEST_CACHE="$root/.devcache" sh tests/own_kernel_gpu.sh "$ws" /work/main 2>&1; echo "own_kernel_gpu exit $?"; } >>"$out/own.txt"
# the ladder's gpu-labelled tests: a version's GPU capture now runs in a child of its own
for t in schedule_gpu bench_gpu; do
    { echo "### tests/$t.sh"; sh "tests/$t.sh" "$ws" >/tmp/t.txt 2>&1; rc=$?; tail -n 6 /tmp/t.txt; echo "$t exit $rc"; } >>"$out/own.txt"
done
"$ws" verify --md "$out/gpu-equivalence.md" >/tmp/verify.txt 2>&1
echo "ladder verify exit $?: $(grep -c identical "$out/gpu-equivalence.md") identical, $(grep -c DIFFERS "$out/gpu-equivalence.md") DIFFERS" >>"$out/env.txt"
ls -la "$XDG_CACHE_HOME/warpscope" | tail -n 5 >>"$out/env.txt"
