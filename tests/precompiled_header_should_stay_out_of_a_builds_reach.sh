#!/bin/sh
# The emulator's precompiled header is kept in the cache and shared by every learner's build. A
# build's steps work in a folder they may write: whatever they write there must not reach the
# cache's copy, or one hostile file (one that takes over its compiler, which parses it) changes
# every later file's build. The compiler here stands for one taken over: given a file that names
# POISON_ME, it writes into every precompiled header its -I folders hold (one that drops
# __syncthreads). Then a right file built afresh must still sum 256 ones to 256, and the cache's
# header must keep its bytes. Run where the steps are the cache's owner (any user but root; as
# root, warpscope is run as nobody for this); skips without bubblewrap or runuser.
ws="$1"
src="$2"
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
fail=0
say() { echo "FAIL: $*"; fail=1; }

"$ws" --version | grep -q "^sandbox for a learner's file: bubblewrap" || { echo "SKIP: no bubblewrap sandbox here"; exit 77; }
as=""
if [ "$(id -u)" = 0 ]; then
    command -v runuser >/dev/null 2>&1 || { echo "SKIP: root without runuser"; exit 77; }
    as="runuser -u nobody --"
fi
$as test -x "$ws" || { echo "SKIP: $ws cannot be run by the user the test runs it as"; exit 77; }
real=$(command -v c++) || { echo "SKIP: no c++"; exit 77; }
real=$(readlink -f "$real")

mkdir -p "$tmp/bin" "$tmp/cache" "$tmp/out" "$tmp/class"
cat >"$tmp/bin/cxx" <<EOF
#!/bin/sh
src=""
g=""
for a; do
    case "\$a" in
    *rewrite.cpp) src=\$a ;;
    -I*) [ -f "\${a#-I}/trace/capture/ws_cuda.h.gch" ] && g="\$g \${a#-I}/trace/capture/ws_cuda.h.gch" ;;
    esac
done
if [ -n "\$src" ] && grep -q POISON_ME "\$src" && [ -n "\$g" ]; then
    mkdir -p p && cp -r inc p/ && printf '\n#define __syncthreads() ((void)0)\n' >>p/inc/trace/capture/ws_cuda.h &&
        "$real" -std=c++17 -O1 -fPIC -w -DWS_EMU -DWS_USER -Ip/inc -Ip/inc/trace/capture -Ip/inc/trace/capture/own/include \\
            -x c++-header p/inc/trace/capture/ws_cuda.h -o p/x.gch && for f in \$g; do cat p/x.gch >"\$f"; done
fi
exec "$real" "\$@"
EOF
chmod 755 "$tmp/bin/cxx"
cp "$src/tests/own/one_block_sum.cu" "$tmp/class/first.cu"
{ echo "// the same kernel, another file: built afresh"; cat "$src/tests/own/one_block_sum.cu"; } >"$tmp/class/second.cu"
echo '__global__ void POISON_ME(const float *in, float *out, unsigned n) { if (threadIdx.x == 0) out[0] = in[0]; }' >"$tmp/class/hostile.cu"
[ -n "$as" ] && chown -R nobody "$tmp/cache" "$tmp/out"
chmod -R a+rX "$tmp/class" "$tmp/bin"

n=256 # --data ones: the sum is n
run() { # FILE ENTRY: the result the capture printed
    $as env XDG_CACHE_HOME="$tmp/cache" WARPSCOPE_CXX="$tmp/bin/cxx" "$ws" capture --kernel "$tmp/class/$1" --entry "$2" \
        --n $n --data ones -o "$tmp/out/t.json" 2>&1 | sed -n 's/.* result \([-0-9.e+]*\) -> .*/\1/p'
}
got=$(run first.cu 'k<<<1, 256>>>(in, out, n)')
[ "$got" = "$n" ] || say "a right file before anything hostile: '$got', want $n"
gch=$(ls "$tmp/cache/warpscope/"pch-*/trace/capture/ws_cuda.h.gch 2>/dev/null | head -1)
[ -n "$gch" ] || { echo "SKIP: this compiler made no precompiled header: nothing shared to keep"; exit 77; }
before=$(cksum <"$gch")
run hostile.cu 'POISON_ME<<<1, 32>>>(in, out, n)' >/dev/null
[ "$(cksum <"$gch")" = "$before" ] || say "a build's step changed the cache's precompiled header ($gch)"
got=$(run second.cu 'k<<<1, 256>>>(in, out, n)')
[ "$got" = "$n" ] || say "a right file built after the hostile one sums $n ones to '$got', want $n"

[ $fail -eq 0 ] && echo "ok: what a build's step writes stays in its folder; a right file built after a hostile one sums to $n"
exit $fail
