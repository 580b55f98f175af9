#!/bin/sh
# A learner's file is a stranger's code. One hostile file per class of harm, each tried against
# warpscope as a grading teacher runs it: none of them may reach outside the sandbox (a marker file,
# a listener, a secret under $HOME), outlive its limits, change another file's verdict or fool the
# cache. The expected verdicts come from the exercise's own model solution and starting file,
# judged alone; the expected sums from the data pattern (--data ones: n).
ws="$1"
src="$2"
tmp=$(mktemp -d)
chmod 755 "$tmp"
listener=""
trap 'rm -rf "$tmp"; [ -n "$listener" ] && kill $listener 2>/dev/null' EXIT
fail=0
say() { echo "FAIL: $*"; fail=1; }
export HOME="$tmp/home" XDG_CACHE_HOME="$tmp/cache"
mkdir -p "$HOME" "$tmp/class"
echo "the teacher's secret" >"$HOME/secret"
chmod 644 "$HOME/secret"

"$ws" --version | grep -q "^sandbox for a learner's file: bubblewrap" || {
    echo "SKIP: this machine gives no bubblewrap sandbox: $("$ws" --version | grep sandbox)"
    exit 77
}

ex="$src/lessons/exercises"
cp "$src/tests/exercises/02-v1-padding.solution.cu" "$tmp/class/good.cu"
cp "$ex/02-v1-padding.cu" "$tmp/class/start.cu"

# host code added to a copy of a file: `hostile NAME FROM CODE`
hostile() {
    { cat "$3"; printf '%s\n' "$2"; } >"$tmp/class/$1"
}
hostile crash.cu '#include <stdlib.h>
struct ws_boom { ws_boom() { abort(); } } ws_boom_now;' "$src/tests/exercises/02-v1-padding.solution.cu"
hostile parent.cu '#include <signal.h>
#include <unistd.h>
struct ws_boom { ws_boom() { kill(getppid(), SIGKILL); kill(-1, SIGKILL); } } ws_boom_now;' "$src/tests/exercises/02-v1-padding.solution.cu"
hostile fork.cu '#include <unistd.h>
struct ws_boom { ws_boom() { if (fork() == 0) { setsid(); sleep(60); } } } ws_boom_now;' "$src/tests/exercises/02-v1-padding.solution.cu"
# rewrites the grader where it would run (query_eval returns at once, saying nothing was wrong)
hostile patch.cu '#include <dlfcn.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
struct ws_boom {
    ws_boom() {
        unsigned char *f = (unsigned char *)dlsym(RTLD_DEFAULT, "query_eval");
        if (!f) return;
        uintptr_t page = (uintptr_t)f & ~(uintptr_t)4095;
        mprotect((void *)page, 8192, PROT_READ | PROT_WRITE | PROT_EXEC);
        static const unsigned char ret0[] = {0x31, 0xc0, 0xc3};
        memcpy(f, ret0, sizeof ret0);
    }
} ws_boom_now;' "$ex/02-v1-padding.cu"

# ---- a batch: every file judged as if it were alone ----
"$ws" exercise check 02 "$tmp/class/good.cu" --json >"$tmp/alone-good.json" 2>/dev/null
"$ws" exercise check 02 "$tmp/class/start.cu" --json >"$tmp/alone-start.json" 2>/dev/null
timeout 300 "$ws" exercise check 02 "$tmp/class/crash.cu" "$tmp/class/good.cu" "$tmp/class/parent.cu" "$tmp/class/fork.cu" \
    "$tmp/class/patch.cu" --json >"$tmp/batch.json" 2>"$tmp/batch.err"
rc=$?
[ $rc -eq 2 ] || say "the batch exited $rc (2: some file did not run, so was not judged): $(cat "$tmp/batch.err")"
python3 - "$tmp" <<'EOF' || fail=1
import json, sys
tmp = sys.argv[1]
def files(path):
    d = json.load(open(path))
    fs = d.get("files", d if isinstance(d, list) else [])
    return {f["file"].rsplit("/", 1)[-1]: f for f in fs}
def met(f):
    return [g.get("met") for g in f.get("goals", [])]
alone = {**files(tmp + "/alone-good.json"), **files(tmp + "/alone-start.json")}
batch = files(tmp + "/batch.json")
bad = 0
def check(cond, what):
    global bad
    if not cond:
        print("FAIL:", what)
        bad = 1
check(all(met(alone["good.cu"])) and met(alone["good.cu"]), "the model solution alone meets every goal: %s" % met(alone["good.cu"]))
check(not all(met(alone["start.cu"])), "the starting file alone misses a goal")
check(set(batch) == {"crash.cu", "good.cu", "parent.cu", "fork.cu", "patch.cu"}, "every file of the batch is reported: %s" % sorted(batch))
check(met(batch.get("good.cu", {})) == met(alone["good.cu"]), "the model solution in the batch is judged as alone")
check(met(batch.get("patch.cu", {})) == met(alone["start.cu"]), "a file that patches the grader gets the starting file's verdict: %s" % met(batch.get("patch.cu", {})))
check("abort" in json.dumps(batch.get("crash.cu", {})) or "signal 6" in json.dumps(batch.get("crash.cu", {})), "the crashing file is told it aborted: %s" % json.dumps(batch.get("crash.cu", {}))[:300])
for name in ("parent.cu", "fork.cu"):
    f = batch.get(name, {})
    check(met(f) == met(alone["good.cu"]) or f.get("error"), "%s is judged, or told why not: %s" % (name, json.dumps(f)[:300]))
sys.exit(bad)
EOF
sleep 1
# a copy of warpscope-run that the forking file started (its command line names the file)
pgrep -f "warpscope-run trace .*class/fork.cu" >/dev/null && say "a process the forking file started outlived the batch: $(pgrep -af "class/fork.cu")"

# ---- reaching outside: a command, a socket, a secret ----
cp "$src/tests/own/one_block_sum.cu" "$tmp/base.cu"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 - "$port" "$tmp/connected" <<'EOF' &
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(5); s.settimeout(120)
try:
    c, _ = s.accept(); open(sys.argv[2], "w").write("connected")
except Exception:
    pass
EOF
listener=$!
sleep 0.5
cat "$tmp/base.cu" - >"$tmp/reach.cu" <<EOF
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
void run(const float *in, float *out, unsigned n)
{
    system("touch $tmp/system-ran; echo x > $tmp/system-ran");
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons($port);
    a.sin_addr.s_addr = htonl(0x7f000001);
    if (fd >= 0) connect(fd, (struct sockaddr *)&a, sizeof a);
    FILE *f = fopen("$HOME/secret", "r");
    FILE *w = fopen("$tmp/written-outside", "w");
    if (w) fclose(w);
    k<<<1, 256>>>(in, out, n);
    if (f) cudaMemset(out, 0, 4);
}
EOF
for off in "" namespaces; do
    out=$(WARPSCOPE_SANDBOX_OFF=$off "$ws" stats --kernel "$tmp/reach.cu" --entry 'run(in, out, n)' --n 256 --data ones 2>&1)
    echo "$out" | grep -q "^result 256," || say "[off: ${off:-none}] the file's kernel ran and its out[0] is the result: $(echo "$out" | grep -m1 -E 'result|warpscope')"
    [ -e "$tmp/system-ran" ] && say "[off: ${off:-none}] system() ran a command outside the sandbox"
    [ -e "$tmp/written-outside" ] && say "[off: ${off:-none}] the file wrote outside its folder"
    [ -e "$tmp/connected" ] && say "[off: ${off:-none}] the file opened a socket to a local listener"
    rm -f "$tmp/system-ran" "$tmp/written-outside"
done
# the secret: out[0] says whether the file could read it (7: it could not)
cat "$tmp/base.cu" - >"$tmp/secret.cu" <<EOF
#include <stdio.h>
void run(const float *in, float *out, unsigned n)
{
    k<<<1, 256>>>(in, out, n);
    FILE *f = fopen("$HOME/secret", "r");
    float v = f ? 4242.0f : 7.0f;
    cudaMemcpy(out, &v, sizeof v, cudaMemcpyHostToDevice);
}
EOF
for off in "" namespaces; do
    out=$(WARPSCOPE_SANDBOX_OFF=$off "$ws" stats --kernel "$tmp/secret.cu" --entry 'run(in, out, n)' --n 256 --data ones 2>&1)
    echo "$out" | grep -q "^result 7," || say "[off: ${off:-none}] a secret under \$HOME was read (result 4242) or the run failed: $(echo "$out" | grep -m1 -E 'result|warpscope')"
done
# no confinement of files at all: refused unless --unsafe
out=$(WARPSCOPE_SANDBOX_OFF=namespaces,landlock "$ws" stats --kernel "$tmp/secret.cu" --entry 'run(in, out, n)' --n 256 2>&1)
[ $? -eq 2 ] && echo "$out" | grep -q -- "--unsafe" || say "a machine that cannot confine files runs a file without --unsafe: $out"
out=$(WARPSCOPE_SANDBOX_OFF=namespaces,landlock "$ws" stats --kernel "$tmp/secret.cu" --entry 'run(in, out, n)' --n 256 --data ones --unsafe 2>&1)
echo "$out" | grep -q "^result" || say "--unsafe runs the file where files cannot be confined: $out"

# ---- limits: sleep and goto loops, the front end's memory, the build's output ----
limited() { # NAME EXPECT-REGEX SECONDS ENTRY
    start=$(date +%s)
    out=$(timeout 200 "$ws" stats --kernel "$tmp/$1" --entry "$4" --n 256 2>&1)
    rc=$?
    took=$(($(date +%s) - start))
    [ $rc -eq 2 ] || say "$1: exit $rc, not 2: $out"
    echo "$out" | grep -q -E "$2" || say "$1: no line matching '$2': $out"
    [ $took -le $3 ] || say "$1: stopped after $took s (limit $3 s)"
}
cat "$tmp/base.cu" - >"$tmp/sleep.cu" <<'EOF'
#include <unistd.h>
void run(const float *in, float *out, unsigned n) { sleep(1000); k<<<1, 256>>>(in, out, n); }
EOF
limited sleep.cu "sleep.cu: still running after 15 s" 40 'run(in, out, n)'
cat >"$tmp/goto.cu" <<'EOF'
__global__ void k(const float *in, float *out, unsigned n)
{
    unsigned t = threadIdx.x;
again:
    if (t < n + 1) goto again;
    out[0] = in[0];
}
EOF
limited goto.cu "goto.cu: still running after 15 s" 40 'k<<<1, 256>>>(in, out, n)'
python3 - "$tmp/bomb.cu" <<'EOF'
import sys
lines = ["#define A0 1"] + ["#define A%d A%d+A%d" % (i, i - 1, i - 1) for i in range(1, 40)]
lines.append("__global__ void k(float *out) { out[0] = A39; }")
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
EOF
limited bomb.cu "bomb.cu: the (front end|compiler) (ran out of its 2 GiB|used more than|still running|stopped)" 130 'k<<<1, 32>>>(out)'
printf '#include "/dev/zero"\n__global__ void k(float *out) { out[0] = 1; }\n' >"$tmp/zero.cu"
limited zero.cu "zero.cu: the (front end|compiler) (ran out of its 2 GiB|used more than|still running|stopped)|zero.cu:1:[0-9]+: (fatal )?error" 130 'k<<<1, 32>>>(out)'
cat "$tmp/base.cu" - >"$tmp/huge.cu" <<'EOF'
char ws_huge[1 << 30] = {1};
void run(const float *in, float *out, unsigned n) { k<<<1, 256>>>(in, out, n); out[1] = ws_huge[5]; }
EOF
limited huge.cu "huge.cu: the compiler wrote a file larger than 64 MiB" 130 'run(in, out, n)'
find "$tmp/cache" -size +64M | grep -q . && say "a build left a file over 64 MiB in the cache"

# ---- the cache ----
# a header beside the file is part of its build: changing it changes the result
printf '#define ADD 3.0f\n' >"$tmp/add.h"
cat "$tmp/base.cu" - >"$tmp/header.cu" <<'EOF'
#include "add.h"
void run(const float *in, float *out, unsigned n) { k<<<1, 256>>>(in, out, n); float v; cudaMemcpy(&v, out, 4, cudaMemcpyDeviceToHost); v += ADD; cudaMemcpy(out, &v, 4, cudaMemcpyHostToDevice); }
EOF
r1=$("$ws" stats --kernel "$tmp/header.cu" --entry 'run(in, out, n)' --n 256 --data ones 2>&1 | grep -m1 '^result')
printf '#define ADD 5.0f\n' >"$tmp/add.h"
r2=$("$ws" stats --kernel "$tmp/header.cu" --entry 'run(in, out, n)' --n 256 --data ones 2>&1 | grep -m1 '^result')
echo "$r1" | grep -q "^result 259," && echo "$r2" | grep -q "^result 261," || say "a changed header beside the file changes its result (259 then 261): '$r1' / '$r2'"

# a file saved while it builds: each content keeps its own result afterwards
cp "$tmp/base.cu" "$tmp/a.cu"; printf '#define ADD 1.0f\n' >>"$tmp/a.cu"
cp "$tmp/base.cu" "$tmp/b.cu"; printf '#define ADD 2.0f\n' >>"$tmp/b.cu"
entry='run(in, out, n)'
addrun='void run(const float *in, float *out, unsigned n) { k<<<1, 256>>>(in, out, n); float v; cudaMemcpy(&v, out, 4, cudaMemcpyDeviceToHost); v += ADD; cudaMemcpy(out, &v, 4, cudaMemcpyHostToDevice); }'
echo "$addrun" >>"$tmp/a.cu"; echo "$addrun" >>"$tmp/b.cu"
mkdir -p "$tmp/race"
for i in 1 2 3 4 5 6; do
    cp "$tmp/a.cu" "$tmp/race/r.cu"
    ( for j in $(seq 40); do cp "$tmp/b.cu" "$tmp/race/r.cu"; cp "$tmp/a.cu" "$tmp/race/r.cu"; done ) &
    "$ws" stats --kernel "$tmp/race/r.cu" --entry "$entry" --n 256 --data ones >/dev/null 2>&1
    wait
done
for which in a:257 b:258; do
    cp "$tmp/${which%%:*}.cu" "$tmp/race/r.cu"
    "$ws" stats --kernel "$tmp/race/r.cu" --entry "$entry" --n 256 --data ones 2>&1 | grep -q "^result ${which##*:}," ||
        say "after saves during builds, content ${which%%:*} computes ${which##*:}"
done

# a cache folder that is a link, or writable by others, is refused; a planted link is not loaded
mkdir -p "$tmp/elsewhere" "$tmp/linked"
ln -s "$tmp/elsewhere" "$tmp/linked/warpscope"
out=$(XDG_CACHE_HOME="$tmp/linked" "$ws" stats --kernel "$tmp/a.cu" --entry "$entry" 2>&1)
[ $? -eq 2 ] && echo "$out" | grep -q "symbolic link" || say "a cache folder that is a link is refused: $out"
mkdir -p "$tmp/open/warpscope" && chmod 777 "$tmp/open/warpscope"
out=$(XDG_CACHE_HOME="$tmp/open" "$ws" stats --kernel "$tmp/a.cu" --entry "$entry" 2>&1)
[ $? -eq 2 ] && echo "$out" | grep -q "written by others" || say "a cache folder others may write is refused: $out"
mkdir -p "$tmp/plant"
XDG_CACHE_HOME="$tmp/plant" "$ws" stats --kernel "$tmp/b.cu" --entry "$entry" --n 256 --data ones >/dev/null 2>&1
cp "$tmp/plant/warpscope/"*.emu.so "$tmp/b.so"
rm -rf "$tmp/plant/warpscope"
XDG_CACHE_HOME="$tmp/plant" "$ws" stats --kernel "$tmp/a.cu" --entry "$entry" --n 256 --data ones >/dev/null 2>&1
for so in "$tmp/plant/warpscope/"*.emu.so; do rm -f "$so"; ln -s "$tmp/b.so" "$so"; done
XDG_CACHE_HOME="$tmp/plant" "$ws" stats --kernel "$tmp/a.cu" --entry "$entry" --n 256 --data ones 2>&1 | grep -q "^result 257," ||
    say "a planted link in the cache was loaded (a.cu computed b.cu's 258)"

# past its size the cache lets the least recently used go
for i in 1 2 3 4 5 6; do
    sed "s/ADD 1.0f/ADD $i.0f/" "$tmp/a.cu" >"$tmp/v$i.cu"
    XDG_CACHE_HOME="$tmp/small" WARPSCOPE_CACHE_MAX=60000 "$ws" stats --kernel "$tmp/v$i.cu" --entry "$entry" --n 256 --data ones 2>&1 |
        grep -q "^result $((256 + i))," || say "v$i.cu computes $((256 + i)) with a small cache"
done
total=$(du -sb "$tmp/small/warpscope" | cut -f1)
[ "$total" -le 120000 ] || say "the cache holds $total bytes, past twice its 60000"
# the emulator's precompiled header: one, in a cache of the default size, readable by the build's
# steps (nobody); none in a small one
ls "$tmp/plant/warpscope/"pch-*/trace/capture/ws_cuda.h.gch >/dev/null 2>&1 || say "no precompiled header in a cache of the default size"
[ "$(ls -d "$tmp/plant/warpscope/"pch-* 2>/dev/null | wc -l)" -le 1 ] || say "more than one precompiled header kept"
[ -z "$(find "$tmp/plant/warpscope/" -name '*.gch' ! -perm -0444)" ] || say "a precompiled header the build's steps cannot read"
ls -d "$tmp/small/warpscope/"pch-* >/dev/null 2>&1 && say "a precompiled header in a cache of 60000 bytes"

exit $fail
