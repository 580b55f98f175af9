#!/bin/sh
# warpscope serve's sessions are its own, and its joins bounded: a join never adopts the session id
# the browser brought (one an attacker chose gives nothing; joining again under one's own name moves
# the name to a new id and the old one is no one's); a name Remove took is free to join again; 200
# students behind one address join and the join past SERVE_JOINS_PER_ADDRESS (300) is 429 with a
# Retry-After while another address still joins; the cookies are Secure when a proxy on this machine
# says the browser's connection is TLS (X-Forwarded-Proto: https), not otherwise; the token read from
# --token-file signs in, a sign-out ends that sign-in, and a server started again with another token
# ($WARPSCOPE_TOKEN) ends the sign-ins made with the old; a class the teacher closed stays closed
# across a restart (no class without a code is opened in its place). The server stops whatever happens.
ws="$1"
command -v python3 >/dev/null 2>&1 || { echo "FAIL: python3 is needed for this test"; exit 1; }
if "$ws" serve --state /nonexistent/probe --bind not-an-address 2>&1 | grep -q "built without the class server"; then
    echo "SKIP: this build has no class server (libmicrohttpd-dev, libsqlite3-dev)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'for p in $(cat "$tmp/serve.pids" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
export HOME="$tmp/home" XDG_CACHE_HOME="$tmp/cache"
# the sandbox where the machine gives one; the files run are the project\'s own
"$ws" --version | grep -q "^sandbox for a learner\'s file: bubblewrap" || export WARPSCOPE_UNSAFE=1
mkdir -p "$HOME"
python3 - "$ws" "$tmp" <<'PY'
import json, os, re, subprocess, sys, time, urllib.request, urllib.error
ws, tmp = sys.argv[1:3]
fails = []
def check(c, what):
    print(("ok   " if c else "FAIL ") + what)
    if not c: fails.append(what)
server = None
base = None
def start(*args, env=None):
    global server, base
    server = subprocess.Popen([ws, "serve", "--port", "0", "--state", tmp + "/state", "--workers", "1", *args], stdout=subprocess.PIPE,
                              stderr=open(tmp + "/err", "a"), text=True, env=dict(os.environ, **(env or {})))
    open(tmp + "/serve.pids", "a").write("%d\n" % server.pid)
    m = re.search(r"http://127\.0\.0\.1:(\d+)/", server.stdout.readline())
    if not m: print("FAIL: serve did not start:", open(tmp + "/err").read()); sys.exit(1)
    base = "http://127.0.0.1:" + m.group(1)
def stop():
    server.terminate(); server.wait(timeout=30)
def call(method, path, body=None, cookie=None, headers=None):
    h = {"Content-Type": "application/json", "Origin": base, **(headers or {})}
    if cookie: h["Cookie"] = cookie
    req = urllib.request.Request(base + path, data=json.dumps(body).encode() if body is not None else None, method=method, headers=h)
    try:
        r = urllib.request.urlopen(req, timeout=60); st, b, hd = r.status, r.read(), r.headers
    except urllib.error.HTTPError as e:
        st, b, hd = e.code, e.read(), e.headers
    sc = hd.get("Set-Cookie") or ""
    return st, b, sc.split(";")[0], sc, hd
open(tmp + "/token", "w").write("first-token-1234\n")
start("--token-file", tmp + "/token")
auth = {"Authorization": "Bearer first-token-1234"}
# fixation: a session id chosen beforehand is never adopted
chosen = "ws_session=" + "ab" * 16
st, _, got, _, _ = call("POST", "/api/join", {"name": "Ana"}, cookie=chosen)
check(st == 200 and got.startswith("ws_session=") and got != chosen, "a join with a chosen id gets a new one: %s %s" % (st, got))
st, *_ = call("POST", "/api/check", {"exercise": "02", "source": "x"}, cookie=chosen)
check(st == 401, "the chosen id is no one's: %s" % st)
st, _, again, _, _ = call("POST", "/api/join", {"name": "Ana"}, cookie=got)
check(st == 200 and again != got, "Ana joining again: a new id: %s" % st)
st, *_ = call("POST", "/api/check", {"exercise": "02", "source": "x"}, cookie=got)
check(st == 401, "and her old id is no one's: %s" % st)
st, *_ = call("POST", "/api/join", {"name": "Ana"})
check(st == 409, "another browser cannot take her name: %s" % st)
st, *_ = call("POST", "/api/class/remove", {"student": "Ana"}, headers=auth)
check(st == 200, "the teacher removes Ana: %s" % st)
st, *_ = call("POST", "/api/join", {"name": "Ana"})
check(st == 200, "her name is free again: %s" % st)
# Secure behind TLS
_, _, _, raw, _ = call("POST", "/api/join", {"name": "Tls"}, headers={"X-Forwarded-Proto": "https"})
check("Secure" in raw, "behind a TLS proxy the cookie is Secure: %s" % raw)
_, _, _, raw, _ = call("POST", "/api/join", {"name": "Plain"})
check("Secure" not in raw, "without, it is not (a plain http lab still works): %s" % raw)
# joins per address: a lab of 200 behind one address joins; past 300 in the window, 429
codes = [call("POST", "/api/join", {"name": "lab%03d" % i}, headers={"X-Real-IP": "10.0.0.7"})[0] for i in range(300)]
check(codes.count(200) == 300, "300 joins from one address: %d answered 200" % codes.count(200))
st, _, _, _, hd = call("POST", "/api/join", {"name": "one-more"}, headers={"X-Real-IP": "10.0.0.7"})
check(st == 429 and hd.get("Retry-After"), "the next from that address: 429 with Retry-After: %s %s" % (st, hd.get("Retry-After")))
st, *_ = call("POST", "/api/join", {"name": "elsewhere"}, headers={"X-Real-IP": "10.0.0.8"})
check(st == 200, "another address still joins: %s" % st)
# the token from a file signs in; a sign-out ends it
st, _, t1, _, _ = call("POST", "/api/class/signin", {"token": "first-token-1234"})
check(st == 200 and t1.startswith("ws_teacher="), "the token from --token-file signs in: %s" % st)
check(call("GET", "/api/class", cookie=t1)[0] == 200, "the sign-in shows the class")
st, _, t2, _, _ = call("POST", "/api/class/signin", {"token": "first-token-1234"})
call("POST", "/api/class/signout", {}, cookie=t2)
check(call("GET", "/api/class", cookie=t2)[0] == 401, "a sign-out ends that sign-in")
check(call("GET", "/api/class", cookie=t1)[0] == 200, "and not another")
# a class closed stays closed across a restart
st, b, *_ = call("POST", "/api/class/open", {"code": "LAB1"}, headers=auth)
cls = json.loads(b).get("id") if st == 200 else None
st, *_ = call("POST", "/api/class/state", {"class": cls, "state": "closed"}, headers=auth)
check(st == 200, "the teacher closes class LAB1: %s" % st)
stop()
start(env={"WARPSCOPE_TOKEN": "second-token-5678"})
check(call("GET", "/api/class", cookie=t1)[0] == 401, "a new token: the old sign-in has ended")
st, b, *_ = call("GET", "/api/class", headers={"Authorization": "Bearer second-token-5678"})
d = json.loads(b) if st == 200 else {}
check(st == 200 and not any(c["state"] == "open" for c in d.get("classes", [])), "after a restart no class is open: %s" % [(c["code"], c["state"]) for c in d.get("classes", [])])
check(call("POST", "/api/join", {"name": "Late"})[0] == 404 and call("POST", "/api/join", {"name": "Late", "code": "LAB1"})[0] == 404,
      "no one joins the closed class, with its code or without")
stop()
sys.exit(1 if fails else 0)
PY
rc=$?
[ $rc = 0 ] && echo "serve_should_keep_sessions_its_own: passed"
exit $rc
