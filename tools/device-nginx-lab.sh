#!/bin/sh
# A lab through nginx on two `warpscope serve` instances sharing one PostgreSQL, one instance killed
# (kill -9) mid-lab, all on one machine:
#   tools/device-nginx-lab.sh prepare [BUILD]   here, with a build (default build/): the server as
#                       `tools/device-serve.sh prepare` packs it, and Debian's PostgreSQL server (its
#                       programs, plpgsql and snowball, its share folder) and nginx with the libraries
#                       they need into .devserve/pgnginx.tar.xz (a bare Debian 12 has neither)
#   tools/device-nginx-lab.sh OUT [STUDENTS [SECONDS]]   there, from the repository root, as root:
#                       PostgreSQL (as nobody) on 127.0.0.1:15432, instances A and B on 18081 and 18082
#                       (--workers: half the cores each, or WS_WORKERS), nginx with docs/nginx-warpscope.conf
#                       (its ports and log moved here) on 18080, `tools/load-class.py --lab` with STUDENTS
#                       (default 200) for SECONDS (default 150) through nginx, B killed at WS_KILL_AT
#                       seconds (default half of SECONDS). In OUT: lab.txt (p50/p95/p99 per kind, tries
#                       lost, answers by code, what nginx did with the requests B held when it died),
#                       load.txt and load.json (load-class's own), a.log, b.log, access.log (nginx's),
#                       pg.log, env.txt.
set -u
root="$PWD"
pgv=15 # Debian 12's PostgreSQL

if [ "${1:-}" = prepare ]; then
    build="${2:-build}"
    # the server's pack, unless the one there is newer than the build
    [ .devserve/serve.tar.xz -nt "$build/warpscope" ] && [ .devserve/serve.tar.xz -nt "$build/warpscope-run" ] ||
        sh tools/device-serve.sh prepare "$build" || exit 1
    p=.devserve/pgpack
    rm -rf $p && mkdir -p $p/usr/lib/postgresql/$pgv/lib $p/usr/share/postgresql $p/lib $p/zoneinfo $p/icu || exit 1
    # the programs where PostgreSQL finds its share and lib folders, relative to its own (bin/../../../../share)
    mkdir -p $p/usr/lib/postgresql/$pgv/bin
    for x in postgres initdb pg_ctl; do
        cp /usr/lib/postgresql/$pgv/bin/$x $p/usr/lib/postgresql/$pgv/bin/ || { echo "PostgreSQL $pgv's server is not installed here"; exit 1; }
    done
    for m in plpgsql dict_snowball; do cp /usr/lib/postgresql/$pgv/lib/$m.so $p/usr/lib/postgresql/$pgv/lib/ || exit 1; done
    cp -r /usr/share/postgresql/$pgv $p/usr/share/postgresql/ || exit 1
    rm -rf $p/usr/share/postgresql/$pgv/man # and of the extensions, plpgsql's alone (initdb makes it)
    find $p/usr/share/postgresql/$pgv/extension -type f ! -name 'plpgsql*' -delete
    cp /usr/sbin/nginx $p/ || { echo "nginx is not installed here"; exit 1; }
    cp /usr/share/zoneinfo/UTC $p/zoneinfo/ || exit 1
    ldd $p/usr/lib/postgresql/$pgv/bin/* $p/usr/lib/postgresql/$pgv/lib/*.so $p/nginx 2>/dev/null | awk '/=> \// { print $3 }' | sort -u |
        grep -Ev '/(libc|libm|libdl|libpthread|librt|libstdc\+\+|libgcc_s)\.so' >.devserve/pglibs
    # those the server's pack holds already are not packed twice (both fit what a call carries)
    xz -dc .devserve/serve.tar.xz | tar -tf - | sed -n 's#^\./lib/\(..*\)#/\1#p' >.devserve/servelibs
    grep -vFf .devserve/servelibs .devserve/pglibs | xargs -r -I{} cp -L {} $p/lib/
    rm .devserve/pglibs .devserve/servelibs
    # ICU's data for PostgreSQL (initdb opens ICU's root collator; the server's pack holds an empty stub):
    # the system's, less what collation does not use (break iterators, names of languages, zones,
    # currencies and units, spelled-out numbers, transliterators, converters), 8 MB of its 31 MB, made a
    # library of its own again (icupkg: Debian's icu-devtools)
    icu=$(ldconfig -p | sed -n 's/.*=> \(.*libicudata\.so\.[0-9]*\)$/\1/p' | head -n 1)
    v=$(echo "$icu" | sed 's/.*\.so\.//')
    command -v icupkg >/dev/null || { echo "icupkg is needed to make ICU's data small (apt install icu-devtools)"; exit 1; }
    mkdir -p .devserve/icu/out $p/icu
    sym=$(readelf -Ws --dyn-syms "$icu" | awk -v s="icudt${v}_dat" '$8 == s { print $2, $3; exit }')
    [ -n "$sym" ] || { echo "$icu holds no icudt${v}_dat"; exit 1; }
    python3 - "$icu" $sym .devserve/icu/icudt${v}l.dat <<'PY' || exit 1
import subprocess, sys
lib, addr, size, out = sys.argv[1], int(sys.argv[2], 16), int(sys.argv[3], 0), sys.argv[4]
# the symbol's address to its offset in the file, through its section (readelf -S)
for line in subprocess.run(["readelf", "-SW", lib], capture_output=True, text=True).stdout.splitlines():
    f = line.replace("[ ", "[").split()
    if len(f) > 5 and f[0].startswith("[") and f[0].endswith("]") and f[1].startswith("."):
        a, off, sz = int(f[3], 16), int(f[4], 16), int(f[5], 16)
        if a <= addr < a + sz:
            data = open(lib, "rb").read()[off + addr - a:off + addr - a + size]
            open(out, "wb").write(data)
            sys.exit(0)
sys.exit("no section holds icudt_dat in " + lib)
PY
    icupkg -l .devserve/icu/icudt${v}l.dat | grep -E '^(brkitr|rbnf|unit|region|lang|zone|curr|translit)/|\.(cnv|dict)$' >.devserve/icu/drop.txt
    icupkg -r .devserve/icu/drop.txt .devserve/icu/icudt${v}l.dat .devserve/icu/out/icudt${v}l.dat || exit 1 # the name is its items' prefix
    printf '__asm__(".section .rodata\\n.globl icudt%s_dat\\n.type icudt%s_dat, @object\\n.balign 16\\nicudt%s_dat:\\n.incbin \\"%s\\"\\n.size icudt%s_dat, . - icudt%s_dat\\n.previous\\n");\n' \
        "$v" "$v" "$v" "$PWD/.devserve/icu/out/icudt${v}l.dat" "$v" "$v" >.devserve/icu/icu.c
    cc -shared -fPIC -Wl,-soname,"libicudata.so.$v" -o "$p/icu/libicudata.so.$v" .devserve/icu/icu.c || exit 1
    rm -rf .devserve/icu
    tar -C $p -cf - . | xz -T2 -6 >.devserve/pgnginx.tar.xz && rm -rf $p
    du -sh .devserve/pgnginx.tar.xz
    exit 0
fi

[ $# -ge 1 ] || { echo "usage: tools/device-nginx-lab.sh prepare [BUILD] | OUT [STUDENTS [SECONDS]]" >&2; exit 2; }
out="$1"
students="${2:-200}"
seconds="${3:-150}"
kill_at="${WS_KILL_AT:-$((seconds / 2))}"
workers="${WS_WORKERS:-$(( $(nproc) / 2 > 0 ? $(nproc) / 2 : 1 ))}"
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
. tools/device-serve-env.sh || exit 1 # the server unpacked and its data laid out: $pack, $data
pg=/tmp/wspg
rm -rf $pg /tmp/wspgdata /tmp/wspgsock /tmp/wsnginx /tmp/wsstate
mkdir -p $pg && xz -dc .devserve/pgnginx.tar.xz | tar -C $pg -xf - || exit 1
chmod 755 $pg
export LD_LIBRARY_PATH="$pack/lib:$pg/lib"
bin=$pg/usr/lib/postgresql/$pgv/bin
# PostgreSQL reads its zones from the system's folder (Debian builds it so); UTC is all it needs here
[ -e /usr/share/zoneinfo/UTC ] || { mkdir -p /usr/share/zoneinfo && cp $pg/zoneinfo/UTC /usr/share/zoneinfo/UTC; } || exit 1
asuser="setpriv --reuid=nobody --regid=nogroup --clear-groups" # PostgreSQL refuses to run as root
a=""; b=""; n=""
cleanup() {
    for p in $a $b; do kill "$p" 2>/dev/null; done
    [ -f /tmp/wsnginx/nginx.pid ] && kill "$(cat /tmp/wsnginx/nginx.pid)" 2>/dev/null
    [ -d /tmp/wspgdata ] && $asuser env LD_LIBRARY_PATH="$pg/icu:$LD_LIBRARY_PATH" $bin/pg_ctl -D /tmp/wspgdata -m fast stop >/dev/null 2>&1
    cp /tmp/wspgsock/log "$out/pg.log" 2>/dev/null
}
trap cleanup EXIT
trap 'exit 1' INT TERM
healthy() { # PORT answers /api/health within 30 s
    i=0
    until python3 -c 'import sys, urllib.request; urllib.request.urlopen("http://127.0.0.1:%s/api/health" % sys.argv[1], timeout=2)' "$1" 2>/dev/null; do
        i=$((i + 1))
        [ $i -gt 150 ] && return 1
        sleep 0.2
    done
}
{
    echo "cores: $(nproc); $(grep -m1 'model name' /proc/cpuinfo)"
    grep MemTotal /proc/meminfo
    uname -r
    $pack/bin/warpscope --version
    $bin/postgres --version
    $pg/nginx -v 2>&1
    echo "instances: 2, --workers $workers each; students $students for $seconds s; B killed at $kill_at s"
} >"$out/env.txt" 2>&1

# ---- PostgreSQL ----
mkdir -p /tmp/wspgdata /tmp/wspgsock && chown nobody:nogroup /tmp/wspgdata /tmp/wspgsock || exit 1
pglibs="$pg/icu:$LD_LIBRARY_PATH" # ICU's data for PostgreSQL's collations before the server's stub
TZ=UTC $asuser env LD_LIBRARY_PATH="$pglibs" $bin/initdb -D /tmp/wspgdata -U warpscope -A trust >"$out/initdb.log" 2>&1 ||
    { echo "initdb failed:"; tail -n 20 "$out/initdb.log"; exit 1; }
$asuser env LD_LIBRARY_PATH="$pglibs" $bin/pg_ctl -D /tmp/wspgdata -w -l /tmp/wspgsock/log \
    -o "-p 15432 -k /tmp/wspgsock -c listen_addresses=127.0.0.1 -c timezone=UTC -c log_timezone=UTC" start >"$out/pgctl.log" 2>&1 ||
    { echo "PostgreSQL did not start:"; tail -n 20 "$out/pgctl.log" /tmp/wspgsock/log; exit 1; }

# ---- A, then B once A has made the tables ----
token=nginx-lab-$$
db=postgres://warpscope@127.0.0.1:15432/postgres
mkdir -m 700 /tmp/wsstate
$pack/bin/warpscope serve --port 18081 --bind 127.0.0.1 --state /tmp/wsstate --db $db --token $token --workers "$workers" >"$out/a.log" 2>&1 &
a=$!
healthy 18081 || { echo "instance A did not start:"; tail -n 20 "$out/a.log"; exit 1; }
$pack/bin/warpscope serve --port 18082 --bind 127.0.0.1 --state /tmp/wsstate --db $db --token $token --workers "$workers" >"$out/b.log" 2>&1 &
b=$!
healthy 18082 || { echo "instance B did not start:"; tail -n 20 "$out/b.log"; exit 1; }

# ---- nginx: the shipped config, its upstreams, listen and log moved (as the nginx test does) ----
mkdir -p /tmp/wsnginx/logs
sed -e "s/127\.0\.0\.1:8081/127.0.0.1:18081/; s/127\.0\.0\.1:8082/127.0.0.1:18082/" \
    -e "s/^\( *\)listen 80;/\1listen 127.0.0.1:18080;/; /listen \[::\]:80;/d" \
    -e "s#/var/log/nginx/warpscope.access.log#$out/access.log#" docs/nginx-warpscope.conf >/tmp/wsnginx/site.conf
grep -q "listen 127.0.0.1:18080;" /tmp/wsnginx/site.conf && grep -q "127.0.0.1:18082" /tmp/wsnginx/site.conf ||
    { echo "docs/nginx-warpscope.conf no longer has the upstreams 127.0.0.1:8081 and :8082 and 'listen 80;'"; exit 1; }
cat >/tmp/wsnginx/nginx.conf <<EOF
user root;
worker_processes auto;
pid /tmp/wsnginx/nginx.pid;
error_log /tmp/wsnginx/logs/error.log;
events { worker_connections 4096; }
http {
    client_body_temp_path /tmp/wsnginx/body;
    proxy_temp_path /tmp/wsnginx/proxy;
    fastcgi_temp_path /tmp/wsnginx/fastcgi;
    uwsgi_temp_path /tmp/wsnginx/uwsgi;
    scgi_temp_path /tmp/wsnginx/scgi;
    include /tmp/wsnginx/site.conf;
}
EOF
$pg/nginx -e /tmp/wsnginx/logs/error.log -p /tmp/wsnginx -c /tmp/wsnginx/nginx.conf ||
    { echo "nginx did not start:"; tail -n 20 /tmp/wsnginx/logs/error.log; exit 1; }
healthy 18080 || { echo "nginx does not answer:"; tail -n 20 /tmp/wsnginx/logs/error.log; exit 1; }

# ---- the lab through nginx; B killed mid-lab ----
PYTHONUNBUFFERED=1 timeout $((seconds + 300)) python3 tools/load-class.py --lab --url http://127.0.0.1:18080 --token $token \
    --students "$students" --duration "$seconds" --server http://127.0.0.1:18081 --server http://127.0.0.1:18082 \
    --json "$out/load.json" >"$out/load.txt" 2>&1 &
load=$!
sleep "$kill_at"
killed_at=$(date +%s)
kill -9 $b
b=""
echo "instance B (port 18082) killed with SIGKILL at $(date -u -d @$killed_at +%H:%M:%S) UTC, $kill_at s into the lab" >>"$out/env.txt"
wait $load
echo "load-class exit $?" >>"$out/load.txt"
cp /tmp/wsnginx/logs/error.log "$out/nginx-error.log" 2>/dev/null
uptime >>"$out/env.txt"

# ---- the figures ----
python3 - "$out" "$killed_at" <<'PY' >"$out/lab.txt" 2>&1
import datetime, json, re, sys
out, killed_at = sys.argv[1], int(sys.argv[2])
f = json.load(open(out + "/load.json"))
print("a lab of %d students through nginx on two instances sharing PostgreSQL, %.0f s; instance B killed (SIGKILL) mid-lab"
      % (f["students"], f["duration_s"]))
print("%-22s %6s %8s %8s %8s %6s" % ("latency (ms)", "count", "p50", "p95", "p99", "429s"))
for kind, row in f["latency_ms"].items():
    print("%-22s %6s %8s %8s %8s %6s" % (kind, row["count"], row["p50"], row["p95"], row["p99"], row.get("429s", 0)))
print("checks accepted: %d; tries lost from the class record: %d" % (f["checks_accepted"], len(f["lost"])))
for line in f["lost"][:20]:
    print("  lost: " + line)
print("answers by code:")
for endpoint, codes in sorted(f["codes"].items()):
    print("  %s: %s" % (endpoint, ", ".join("%s x%d" % (c, k) for c, k in sorted(codes.items()))))
print("sent again by the student (as the page does) after nginx's 502/504: %s" % (f.get("resent_after_proxy") or "none"))
print("unexpected answers: %d" % len(f["unexpected"]))
for line in f["unexpected"][:20]:
    print("  " + line)
# nginx's log: '$remote_addr [$time_local] "$request_method $uri" $status $bytes $request_time $upstream_addr $upstream_response_time'
line_re = re.compile(r'^\S+ \[([^\]]+)\] "(\S+) (\S+)" (\d+) \S+ (\S+) (.*) (\S+)$')
held, after = {}, {}
for line in open(out + "/access.log"):
    m = line_re.match(line.strip())
    if not m:
        continue
    when = datetime.datetime.strptime(m.group(1), "%d/%b/%Y:%H:%M:%S %z").timestamp()
    status, took, ups = m.group(4), float(m.group(5)), m.group(6)
    if "18082" not in ups or when < killed_at:
        continue
    # answered after the kill and asked of B: B held it (began before the kill) or nginx tried B first after it
    began = when - took
    what = "%s %s -> %s (%s)" % (m.group(2), m.group(3), status, "B then A" if "18082, " in ups else "B only")
    (held if began <= killed_at + 1 else after)[what] = (held if began <= killed_at + 1 else after).get(what, 0) + 1
print("requests B held when it died (by nginx's log, to the second: asked of B, begun by the kill, answered after it):")
for what, k in sorted(held.items()) or [("none", 0)]:
    print("  %s x%d" % (what, k))
print("requests nginx asked of B after its death (refused at once, then asked of A):")
for what, k in sorted(after.items()) or [("none", 0)]:
    print("  %s x%d" % (what, k))
PY
cat "$out/lab.txt"
