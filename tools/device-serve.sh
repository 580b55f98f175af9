#!/bin/sh
# The class of 200 on a 16-core machine: warpscope serve there, tools/load-class.py against it.
#   tools/device-serve.sh prepare [BUILD]   here, with a build (default build/): warpscope, the front
#                                           end, warpscope-run, bubblewrap, their libraries and
#                                           libclang's builtin headers into .devserve/serve.tar.xz
#   tools/device-serve.sh OUT [STUDENTS [SECONDS]]   there, from the repository root (as root):
#                                           the server on its cores, the class played against it;
#                                           the figures in OUT (load.txt, load.json, serve.log, env.txt;
#                                           probe.txt: WS_PROBE=FILE, a script run against the idle server)
set -u
root="$PWD"

if [ "${1:-}" = prepare ]; then
    build="${2:-build}"
    rm -rf .devserve && mkdir -p .devserve/pack/bin .devserve/pack/lib
    cp "$build/warpscope" "$build/warpscope-frontend" "$build/warpscope-run" .devserve/pack/bin/ || exit 1
    strip --strip-debug .devserve/pack/bin/* # what travels with a call is bounded (64 MiB with the tree)
    cp /usr/bin/bwrap .devserve/pack/bin/ || exit 1
    # the machine's own C library and C++ runtime (as new or newer) serve the programs and the learner's build alike
    ldd "$build/warpscope" "$build/warpscope-frontend" "$build/warpscope-run" /usr/bin/bwrap | awk '/=> \// { print $3 }' | sort -u |
        grep -Ev '/(libc|libm|libdl|libpthread|librt|libstdc\+\+|libgcc_s)\.so' | xargs -I{} cp -L {} .devserve/pack/lib/
    # ICU's data (31 MB, libxml2's through LLVM; the front end converts no text) as ICU's own stub
    # library makes it: the entry point with no data, so that the whole fits in what a call carries
    icu=$(ls .devserve/pack/lib/libicudata.so.* 2>/dev/null)
    if [ -n "$icu" ]; then
        v=$(echo "$icu" | sed 's/.*\.so\.//')
        printf 'const struct { unsigned short size; unsigned char m1, m2; unsigned short isize, r; unsigned char e, c, u, r2, fmt[4], ver[4], dver[4], pad[8]; unsigned count; } icudt%s_dat = {32, 0xda, 0x27, 20, 0, 0, 0, 2, 0, {0x43, 0x6d, 0x6e, 0x44}, {1, 0, 0, 0}, {0, 0, 0, 0}, {0}, 0};\n' "$v" >.devserve/icudt.c
        cc -shared -fPIC -Wl,-soname,"$(basename "$icu")" -o "$icu" .devserve/icudt.c || exit 1
        rm .devserve/icudt.c
    fi
    # libclang's builtin headers (stddef.h)
    res=$(ls -d /usr/lib/llvm-*/lib/clang/*/include | sort -V | tail -n 1)
    ver=$(basename "$(dirname "$res")")
    mkdir -p ".devserve/pack/lib/clang/$ver" && cp -r "$res" ".devserve/pack/lib/clang/$ver/" || exit 1
    # less the intrinsics of other processors (riscv_vector.h alone is 8 MB): the machine is x86-64
    find ".devserve/pack/lib/clang/$ver/include" -maxdepth 1 \( -name 'arm_*' -o -name 'riscv_*' -o -name 'altivec.h' -o -name 'htm*intrin.h' \) -delete
    # Debian's libclang, loaded from elsewhere, finds them in /usr/include/clang/VERSION/include
    echo "/usr/include/clang/$ver/include" >.devserve/resource-dir
    tar -C .devserve/pack -cf - . | xz -T2 -6 >.devserve/serve.tar.xz && rm -rf .devserve/pack
    du -sh .devserve/serve.tar.xz
    exit 0
fi

out="$1"
students="${2:-200}"
seconds="${3:-150}"
. tools/device-serve-env.sh || exit 1 # the server unpacked and its data laid out: $pack, $data
{
    echo "cores: $(nproc); $(grep -m1 'model name' /proc/cpuinfo)"
    grep MemTotal /proc/meminfo
    uname -r
    command -v c++ && c++ --version | head -n 1
    $pack/bin/warpscope --version
} >"$out/env.txt" 2>&1
token=load-class-$$
rm -rf /tmp/wsstate
$pack/bin/warpscope serve --port 18080 --state /tmp/wsstate --token $token >"$out/serve.log" 2>&1 &
server=$!
i=0
until curl -fsS http://127.0.0.1:18080/api/health >/dev/null 2>&1 || python3 -c 'import urllib.request; urllib.request.urlopen("http://127.0.0.1:18080/api/health")' 2>/dev/null; do
    i=$((i + 1))
    [ $i -gt 100 ] && { echo "the server did not start" >>"$out/serve.log"; kill $server; exit 1; }
    sleep 0.2
done
# a script of one's own against the idle server first (WS_PROBE=FILE PORT, its output in probe.txt)
[ -n "${WS_PROBE:-}" ] && python3 "$WS_PROBE" 18080 >"$out/probe.txt" 2>&1
# the load generator on the same machine: its 200 threads sleep most of the time
PYTHONUNBUFFERED=1 timeout $((seconds + 180)) python3 tools/load-class.py --url http://127.0.0.1:18080 --token $token --students "$students" ${WS_LOAD_ARGS:-} \
    --duration "$seconds" --json "$out/load.json" >"$out/load.txt" 2>&1
echo "load-class exit $?" >>"$out/load.txt"
uptime >>"$out/env.txt"
kill $server
wait $server
