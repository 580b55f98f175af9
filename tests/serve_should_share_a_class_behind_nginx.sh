#!/bin/sh
# Two `warpscope serve` instances behind nginx keep one class: both started at once on one --state
# folder (the class in SQLite, WAL mode, shared between processes), nginx in front with
# docs/nginx-warpscope.conf (its ports and log moved into a temporary prefix, run as the current
# user; nginx on a port that is not 80, and every POST sends an Origin naming it, as a browser
# does). One student's tries at exercise 02 go through nginx, the model solution and the same file
# with its barrier left out in turn; nginx's log shows each instance answered some, and after every
# try the teacher's view of BOTH instances shows that try: all goals met after the model solution,
# not all after the racing file (the reference: which file was sent), as many tries as were sent,
# the last no earlier than it was sent. Then the same with both instances on --db postgres://
# against a private PostgreSQL cluster (the second started once the first answers), where
# PostgreSQL's server is installed, with what limits a student counted once for both instances (joins per
# address, requests per student, a Run replaced from the other instance, a Check's judgement kept);
# else that part says it is skipped. Skipped (77) where nginx is
# not installed or the build has no class server.
ws="$1"
src="$2"
nginx=$(command -v nginx || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; })
[ -n "$nginx" ] || { echo "nginx not installed: skipped (tools/setup-debian.sh installs it)"; exit 77; }
tmp=$(mktemp -d)
chmod 755 "$tmp"
if "$ws" serve --state "$tmp/probe" --bind not-an-address 2>&1 | grep -q "built without the class server"; then
    rm -rf "$tmp"
    echo "SKIP: this build has no class server (libmicrohttpd-dev, libsqlite3-dev)"
    exit 77
fi
export HOME="$tmp/home" XDG_CACHE_HOME="$tmp/cache"
mkdir -p "$HOME"
pids=""
cleanup() {
    for p in $pids; do kill "$p" 2>/dev/null; done
    [ -f "$tmp/nginx.pid" ] && kill "$(cat "$tmp/nginx.pid")" 2>/dev/null
    [ -n "${pgctl:-}" ] && $asuser "$pgctl" -D "$tmp/pg" -m immediate stop >/dev/null 2>&1
    sleep 0.3
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
fail=0
say() { echo "FAIL: $*"; fail=1; }

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# waits for PORT's /api/health (30 s; python3, which the test needs anyway, rather than curl)
healthy() {
    i=0
    while [ $i -lt 300 ]; do
        python3 -c 'import sys, urllib.request; urllib.request.urlopen("http://127.0.0.1:%s/api/health" % sys.argv[1], timeout=2)' "$1" \
            >/dev/null 2>&1 && return 0
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}
token=class-behind-nginx-$$

# starts two instances (ports A and B) on the class store given as arguments, and nginx before them
start_all() {
    a=$(free_port); b=$(free_port); n=$(free_port)
    # together (a machine's boot starts both at once), or B once A answers ($together: 0)
    "$ws" serve --port "$a" --bind 127.0.0.1 --token "$token" --workers 2 "$@" >"$tmp/a.log" 2>&1 &
    pids="$pids $!"
    [ "$together" = 1 ] || healthy "$a" || { echo "FAIL: instance A did not answer /api/health:"; tail -n 20 "$tmp/a.log"; exit 1; }
    "$ws" serve --port "$b" --bind 127.0.0.1 --token "$token" --workers 2 "$@" >"$tmp/b.log" 2>&1 &
    pids="$pids $!"
    healthy "$a" || { echo "FAIL: instance A did not answer /api/health:"; tail -n 20 "$tmp/a.log"; exit 1; }
    healthy "$b" || { echo "FAIL: instance B did not answer /api/health:"; tail -n 20 "$tmp/b.log"; exit 1; }
    # the documented config, its ports and log moved here; one listen, on the loopback
    rm -rf "$tmp/nginx"
    mkdir -p "$tmp/nginx/logs"
    sed -e "s/127\.0\.0\.1:8081/127.0.0.1:$a/; s/127\.0\.0\.1:8082/127.0.0.1:$b/" \
        -e "s/^\( *\)listen 80;/\1listen 127.0.0.1:$n;/; /listen \[::\]:80;/d" \
        -e "s#/var/log/nginx/warpscope.access.log#$tmp/nginx/logs/access.log#" \
        "$src/docs/nginx-warpscope.conf" >"$tmp/nginx/site.conf"
    grep -q "127.0.0.1:$a" "$tmp/nginx/site.conf" && grep -q "127.0.0.1:$b" "$tmp/nginx/site.conf" &&
        grep -q "listen 127.0.0.1:$n;" "$tmp/nginx/site.conf" ||
        { echo "FAIL: docs/nginx-warpscope.conf no longer has the upstreams 127.0.0.1:8081 and :8082 and 'listen 80;'"; exit 1; }
    user=""
    [ "$(id -u)" -eq 0 ] && user="user root;" # workers as the current user, who owns the prefix
    cat >"$tmp/nginx/nginx.conf" <<EOF
$user
worker_processes 2;
pid $tmp/nginx.pid;
error_log $tmp/nginx/logs/error.log;
events { worker_connections 256; }
http {
    client_body_temp_path $tmp/nginx/body;
    proxy_temp_path $tmp/nginx/proxy;
    fastcgi_temp_path $tmp/nginx/fastcgi;
    uwsgi_temp_path $tmp/nginx/uwsgi;
    scgi_temp_path $tmp/nginx/scgi;
    include $tmp/nginx/site.conf;
}
EOF
    "$nginx" -e "$tmp/nginx/logs/error.log" -p "$tmp/nginx" -c "$tmp/nginx/nginx.conf" -t >"$tmp/nginx-t.log" 2>&1 ||
        { echo "FAIL: nginx -t refuses the config:"; cat "$tmp/nginx-t.log"; exit 1; }
    "$nginx" -e "$tmp/nginx/logs/error.log" -p "$tmp/nginx" -c "$tmp/nginx/nginx.conf" ||
        { echo "FAIL: nginx did not start:"; tail -n 20 "$tmp/nginx/logs/error.log"; exit 1; }
    healthy "$n" || { echo "FAIL: /api/health through nginx did not answer:"; tail -n 20 "$tmp/nginx/logs/error.log"; exit 1; }
}

stop_all() {
    for p in $pids; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
    pids=""
    kill "$(cat "$tmp/nginx.pid")" 2>/dev/null
    i=0
    while [ -f "$tmp/nginx.pid" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
}

# the student's tries through nginx, each followed by both instances' teacher's view
tries() {
    python3 - "$n" "$a" "$b" "$token" "$src" "$tmp/nginx/logs/access.log" "$1" <<'PY'
import http.cookiejar, json, sys, time, urllib.request, urllib.error
nginx, a, b, token, src, log, part = sys.argv[1:]
right = open(src + "/tests/exercises/02-v1-padding.solution.cu").read()
racing = right.replace("__syncthreads();\n    }", "\n    }")
assert racing != right, "the model solution no longer has the loop's barrier this test takes out"
student = "ada-" + part
fails = []

jar = http.cookiejar.CookieJar()  # the student's browser: the session one instance gave, which the other knows
opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
def call(port, method, path, body=None, auth=False):
    req = urllib.request.Request("http://127.0.0.1:%s%s" % (port, path), method=method,
                                 data=json.dumps(body).encode() if body is not None else None)
    if body is not None:
        req.add_header("Content-Type", "application/json")
        # as a browser sends it: the page's origin, nginx's port in it (nginx must pass the Host with its port)
        req.add_header("Origin", "http://127.0.0.1:%s" % port)
    if auth:
        req.add_header("Authorization", "Bearer " + token)
    try:
        with opener.open(req, timeout=300) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()

def met_in(view, name):
    """student NAME's exercise 02 in a /api/class answer"""
    for s in view["students"]:
        if s["name"] == name:
            for e in s["exercises"]:
                if e["exercise"] == "exercise-v1-padding":
                    return e
    return None

status, raw = call(nginx, "POST", "/api/join", {"name": student})
if status != 200:
    fails.append("%s could not join through nginx: %s %s" % (student, status, raw[:200]))
upstreams = []
for k in range(4):
    good = k % 2 == 0
    sent = time.time()
    status, raw = call(nginx, "POST", "/api/check", {"exercise": "02-v1-padding", "source": right if good else racing})
    if status != 200:
        fails.append("try %d through nginx: %s %s" % (k + 1, status, raw[:200]))
        continue
    for wait in range(50): # nginx logs a request once its answer has gone
        with open(log) as f:
            lines = [l for l in f if "/api/check" in l]
        if len(lines) > k:
            break
        time.sleep(0.1)
    if len(lines) != k + 1:
        fails.append("nginx's log holds %d checks after try %d: %s" % (len(lines), k + 1, open(log).read()[-600:]))
        break
    upstreams.append(lines[-1].split()[-2])
    for port, name in ((a, "A"), (b, "B")):
        status, raw = call(port, "GET", "/api/class", auth=True)
        if status != 200:
            fails.append("instance %s's /api/class: %s" % (name, status))
            continue
        e = met_in(json.loads(raw), student)
        if e is None:
            fails.append("try %d (%s) is not in instance %s's /api/class: %s" % (k + 1, "model" if good else "racing", name, raw[:300]))
            continue
        if not e["goals"] or (e["met"] == e["goals"]) != good:
            fails.append("try %d (%s): instance %s shows %s of %s goals met: %s" % (k + 1, "model" if good else "racing", name, e["met"], e["goals"], json.dumps(e)))
        if e["tries"] != k + 1:
            fails.append("try %d: instance %s counts %s tries" % (k + 1, name, e["tries"]))
        if e["last_try_ms"] / 1000.0 + 1.0 < sent:
            fails.append("try %d: instance %s's last try is at %s, before the try was sent (%.0f)" % (k + 1, name, e["last_try"], sent))
served = sorted(set(upstreams))
print("%s: %d of 4 tries through nginx answered, by %s; each looked for in both instances' views" % (part, len(upstreams), ", ".join(served) or "none"))
if len(served) < 2:
    fails.append("nginx sent every try to one instance (%s): the test shows nothing of sharing" % served)
for f in fails:
    print("FAIL: " + f)
sys.exit(1 if fails else 0)
PY
}

# ---- SQLite: one --state folder for both ----
mkdir -m 700 "$tmp/state"
together=1
start_all --state "$tmp/state"
tries sqlite || fail=1
stop_all

# ---- PostgreSQL: a private cluster in the temporary folder ----
initdb=$(ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1)
if [ -z "$initdb" ]; then
    echo "PostgreSQL's server (initdb) not installed: the --db postgres:// part is skipped"
else
    bin=$(dirname "$initdb")
    pgctl="$bin/pg_ctl"
    asuser=""
    if [ "$(id -u)" -eq 0 ]; then # PostgreSQL refuses to run as root: the cluster is nobody's
        asuser="setpriv --reuid=nobody --regid=nogroup --clear-groups"
    fi
    mkdir "$tmp/pg" "$tmp/pgsock"
    [ -n "$asuser" ] && chown nobody:nogroup "$tmp/pg" "$tmp/pgsock"
    pgport=$(free_port)
    $asuser "$initdb" -D "$tmp/pg" -U warpscope -A trust >"$tmp/initdb.log" 2>&1 ||
        { echo "FAIL: initdb:"; tail -n 20 "$tmp/initdb.log"; exit 1; }
    $asuser "$pgctl" -D "$tmp/pg" -w -l "$tmp/pgsock/log" \
        -o "-p $pgport -k $tmp/pgsock -c listen_addresses=127.0.0.1" start >"$tmp/pgctl.log" 2>&1 ||
        { echo "FAIL: pg_ctl start:"; tail -n 20 "$tmp/pgctl.log" "$tmp/pgsock/log"; exit 1; }
    mkdir -m 700 "$tmp/state2"
    together=0 # the first instance makes the tables, then the second starts
    start_all --state "$tmp/state2" --db "postgres://warpscope@127.0.0.1:$pgport/postgres"
    tries postgres || fail=1
    # joins of one name at once on both instances: one 200, the others 409, never a 503 of a duplicate key;
    # then PostgreSQL stopped: /api/health says the record is gone (503, ok false)
    python3 - "$a" "$b" <<'PY' || fail=1
import json, sys, threading, urllib.request, urllib.error
a, b = sys.argv[1:3]
def join(port, out):
    req = urllib.request.Request("http://127.0.0.1:%s/api/join" % port, data=json.dumps({"name": "same-name"}).encode(),
                                 headers={"Content-Type": "application/json", "Origin": "http://127.0.0.1:%s" % port})
    try: out.append(urllib.request.urlopen(req, timeout=60).status)
    except urllib.error.HTTPError as e: out.append(e.code)
got = []
threads = [threading.Thread(target=join, args=(p, got)) for p in (a, b) * 8]
for t in threads: t.start()
for t in threads: t.join()
ok = sorted(got).count(200) == 1 and all(s in (200, 409) for s in got)
print(("ok   " if ok else "FAIL ") + "16 joins of one name on two instances at once: %s" % sorted(got))
sys.exit(0 if ok else 1)
PY
    # one student's Check in flight on either instance: a second, 0.3 s later on the other, is 429
    python3 - "$a" "$b" "$src" <<'PY' || fail=1
import json, sys, threading, time, urllib.request, urllib.error
a, b, src = sys.argv[1:4]
def call(port, path, body, cookie=None):
    h = {"Content-Type": "application/json", "Origin": "http://127.0.0.1:%s" % port}
    if cookie: h["Cookie"] = cookie
    req = urllib.request.Request("http://127.0.0.1:%s%s" % (port, path), data=json.dumps(body).encode(), headers=h)
    try:
        r = urllib.request.urlopen(req, timeout=300); return r.status, r.headers
    except urllib.error.HTTPError as e:
        return e.code, e.headers
st, hd = call(a, "/api/join", {"name": "two-checks"})
cookie = hd.get("Set-Cookie").split(";")[0]
source = open(src + "/tests/exercises/02-v1-padding.solution.cu").read() + "// %f\n" % time.time()
first = []
t = threading.Thread(target=lambda: first.append(call(a, "/api/check", {"exercise": "02", "source": source}, cookie)[0]))
t.start()
time.sleep(0.3)
second = call(b, "/api/check", {"exercise": "02", "source": source}, cookie)[0]
t.join()
third = call(b, "/api/check", {"exercise": "02", "source": source}, cookie)[0]
ok = first == [200] and second == 429 and third == 200
print(("ok   " if ok else "FAIL ") + "a Check on one instance, a second 0.3 s later on the other: %s %s; after the first's answer: %s" % (first, second, third))
sys.exit(0 if ok else 1)
PY
    # what limits a student, an address or a class is one count in PostgreSQL for both instances: a
    # student's 601st request of a minute, the 301st join of an address (X-Real-IP, as nginx sends it)
    # are 429 though each instance saw only half; a Run on B replaces the student's Run in flight on A
    # (a loop, which A would run to the run limit); a Check judged on A is answered on B from the
    # judgement kept (B's count of checks run does not move)
    python3 - "$a" "$b" "$src" <<'PY' || fail=1
import json, sys, threading, time, urllib.request, urllib.error
a, b, src = sys.argv[1:4]
fails = []
def call(port, method, path, body=None, cookie=None, real=None):
    h = {}
    if body is not None: h.update({"Content-Type": "application/json", "Origin": "http://127.0.0.1:%s" % port})
    if cookie: h["Cookie"] = cookie
    if real: h["X-Real-IP"] = real
    req = urllib.request.Request("http://127.0.0.1:%s%s" % (port, path), method=method, headers=h,
                                 data=json.dumps(body).encode() if body is not None else None)
    try:
        r = urllib.request.urlopen(req, timeout=300); return r.status, r.read(), r.headers
    except urllib.error.HTTPError as e:
        return e.code, e.read(), e.headers
def join(port, name, real):
    st, body, hd = call(port, "POST", "/api/join", {"name": name}, real=real)
    return st, (hd.get("Set-Cookie") or "").split(";")[0]

# joins from one address, alternating instances: 300 admitted in all (the bound), the 301st refused
got = [join((a, b)[i % 2], "j%03d" % i, "10.51.0.1")[0] for i in range(301)]
if got[:300] != [200] * 300 or got[300] != 429:
    fails.append("301 joins from one address on two instances: %s" % {s: got.count(s) for s in set(got)} + ", the 301st %s" % got[300])

# a student's requests, alternating instances: 600 a minute in all (the join's own request was the address's)
while time.time() % 60 > 50: time.sleep(1) # all in one minute's window
st, cookie = join(a, "many-requests", "10.51.0.2")
got = [call((a, b)[i % 2], "GET", "/api/health", cookie=cookie)[0] for i in range(601)]
if got[:600] != [200] * 600 or got[600] != 429:
    fails.append("601 requests of one student on two instances: %s" % {s: got.count(s) for s in set(got)} + ", the 601st %s" % got[600])

# a Run on B replaces the student's Run in flight on A
st, cookie = join(a, "two-runs", "10.51.0.3")
loop = "__global__ void k(const float *in, float *out, unsigned n)\n{\n    volatile int spin = 1;\n    while (spin) {\n    }\n}\n// %f\n" % time.time()
kernel = open(src + "/tests/own/one_block_sum.cu").read()
entry = "k<<<1, 256>>>(in, out, n)"
first = {}
t = threading.Thread(target=lambda: first.update(st=call(a, "POST", "/api/trace", {"source": loop, "entry": entry}, cookie)[0]))
t0 = time.time()
t.start()
for _ in range(200): # the first in flight on A (building or tracing)
    h = json.loads(call(a, "GET", "/api/health")[1])
    if h.get("building", 0) + h.get("tracing", 0) >= 1: break
    time.sleep(0.05)
second = call(b, "POST", "/api/trace", {"source": kernel, "entry": entry, "n": 256}, cookie)[0]
t.join()
if first.get("st") != 409 or second != 200:
    fails.append("a Run on B while the student's loop runs on A: A answered %s after %.1f s, B %s" % (first.get("st"), time.time() - t0, second))

# a Check judged on A, the same file checked on B: answered from the judgement kept
st, cookie = join(a, "checked-twice", "10.51.0.4")
source = open(src + "/tests/exercises/02-v1-padding.solution.cu").read() + "// checked twice %f\n" % time.time()
checked = lambda port: json.loads(call(port, "GET", "/api/health")[1])["ran"]["checked"]["count"]
on_b = checked(b)
s1 = call(a, "POST", "/api/check", {"exercise": "02", "source": source}, cookie)[0]
s2 = call(b, "POST", "/api/check", {"exercise": "02", "source": source}, cookie)[0]
if s1 != 200 or s2 != 200 or checked(b) != on_b:
    fails.append("a Check on A then the same file on B: %s %s; B ran %d checks for it" % (s1, s2, checked(b) - on_b))
for f in fails: print("FAIL " + f)
print(("ok   " if not fails else "FAIL ") + "joins, requests, a Run replaced and a judgement kept: one for both instances")
sys.exit(1 if fails else 0)
PY
    # a server gone silent (stopped, as a killed one is) with a student's Check in flight: the hold in the
    # record lapses with its heartbeat, and the student's next Check on the other instance is judged
    apid=$(echo $pids | cut -d' ' -f1)
    python3 - "$a" "$b" "$src" "$apid" <<'PY' || fail=1
import json, os, signal, sys, threading, time, urllib.request, urllib.error
a, b, src, apid = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
def call(port, method, path, body=None, cookie=None, timeout=120):
    h = {"Content-Type": "application/json", "Origin": "http://127.0.0.1:%s" % port}
    if cookie: h["Cookie"] = cookie
    req = urllib.request.Request("http://127.0.0.1:%s%s" % (port, path), method=method,
                                 data=json.dumps(body).encode() if body is not None else None, headers=h)
    try:
        r = urllib.request.urlopen(req, timeout=timeout); return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()
    except OSError:
        return None, {}, b""
st, hd, _ = call(a, "POST", "/api/join", {"name": "left-behind"})
cookie = hd.get("Set-Cookie").split(";")[0]
source = open(src + "/tests/exercises/02-v1-padding.solution.cu").read() + "// %f\n" % time.time()
threading.Thread(target=lambda: call(a, "POST", "/api/check", {"exercise": "02", "source": source}, cookie, timeout=5), daemon=True).start()
for _ in range(200): # the Check in flight on A
    h = json.loads(call(a, "GET", "/api/health")[2] or b"{}")
    if h.get("building", 0) + h.get("tracing", 0) + h.get("checking", 0) >= 1: break
    time.sleep(0.05)
os.kill(apid, signal.SIGSTOP)
held = call(b, "POST", "/api/check", {"exercise": "02", "source": source}, cookie)[0]
time.sleep(12)
after = call(b, "POST", "/api/check", {"exercise": "02", "source": source}, cookie)[0]
os.kill(apid, signal.SIGKILL)
ok = held == 429 and after == 200
print(("ok   " if ok else "FAIL ") + "A silent with a student's Check in flight: B answers %s at once, %s 12 s later" % (held, after))
sys.exit(0 if ok else 1)
PY
    $asuser "$pgctl" -D "$tmp/pg" -m immediate stop >/dev/null 2>&1
    python3 - "$b" <<'PY' || fail=1
import json, sys, urllib.request, urllib.error
try:
    r = urllib.request.urlopen("http://127.0.0.1:%s/api/health" % sys.argv[1], timeout=30); st, body = r.status, r.read()
except urllib.error.HTTPError as e:
    st, body = e.code, e.read()
h = json.loads(body or b"{}")
ok = st == 503 and h.get("ok") is False
print(("ok   " if ok else "FAIL ") + "PostgreSQL stopped: /api/health %s %s" % (st, body[:200]))
sys.exit(0 if ok else 1)
PY
    stop_all
    # the class went to PostgreSQL, not to the --state folder's SQLite
    $asuser "$pgctl" -D "$tmp/pg" -w -l "$tmp/pgsock/log" -o "-p $pgport -k $tmp/pgsock -c listen_addresses=127.0.0.1" start >/dev/null 2>&1
    rows=$("$bin/psql" -h 127.0.0.1 -p "$pgport" -U warpscope -d postgres -Atc \
        "select count(*) from information_schema.tables where table_schema = 'public'" 2>&1)
    [ "${rows:-0}" -gt 0 ] 2>/dev/null || say "no table in the PostgreSQL database after the tries: $rows"
fi

[ $fail -eq 0 ] && echo "OK: a class shared by two instances behind nginx"
exit $fail
