#!/bin/sh
# warpscope serve judges a class: started on a free port with a temporary --state, it traces a right
# kernel (200; its sum against a double-precision sum of the input values the trace itself loaded,
# computed here), names a syntax error's line (422), checks exercise 02's model solution (every goal
# met) and a copy that races (not), shows the class with its token and not without (200 / 401),
# keeps the record across a restart (SIGTERM, then kill -9), answers 413 and 400 to bad bodies, and
# a hostile file (host code calling system() to write a marker, opening a socket to a listener of
# this test) changes nothing outside the sandbox. Skips (77) where the build has no serve or the
# machine gives no sandbox.
ws="$1"
src="$2"
command -v python3 >/dev/null 2>&1 || { echo "FAIL: python3 is needed for this test"; exit 1; }
tmp=$(mktemp -d)
chmod 755 "$tmp"
# every server the script starts stops whatever happens to it (its pid noted in serve.pids)
trap 'for p in $(cat "$tmp/serve.pids" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
if "$ws" serve --state "$tmp/probe" --bind not-an-address 2>&1 | grep -q "built without the class server"; then
    echo "SKIP: this build has no class server (libmicrohttpd-dev, libsqlite3-dev)"
    exit 77
fi
"$ws" --version | grep -q "^sandbox for a learner's file: bubblewrap" || {
    echo "SKIP: this machine gives no bubblewrap sandbox: $("$ws" --version | grep sandbox)"
    exit 77
}
export HOME="$tmp/home" XDG_CACHE_HOME="$tmp/cache"
mkdir -p "$HOME"
python3 - "$ws" "$src" "$tmp" <<'EOF'
import http.cookiejar, json, math, os, re, signal, socket, subprocess, sys, threading, time, urllib.request, urllib.error
ws, src, tmp = sys.argv[1:4]
state = tmp + "/state"
token = "teacher-token-42"
fails = []
def check(cond, what):
    if not cond:
        print("FAIL:", what)
        fails.append(what)
    return cond

server = None
port = None
def start():
    global server, port
    server = subprocess.Popen([ws, "serve", "--port", "0", "--state", state, "--token", token, "--workers", "2"],
                              stdout=subprocess.PIPE, stderr=open(tmp + "/serve.err", "a"), text=True)
    open(tmp + "/serve.pids", "a").write("%d\n" % server.pid)
    line = server.stdout.readline()  # "warpscope serve VERSION on http://127.0.0.1:PORT/ ..."
    m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not m:
        print("FAIL: serve did not say where it listens:", line, open(tmp + "/serve.err").read())
        sys.exit(1)
    port = int(m.group(1))
    threading.Thread(target=lambda: server.stdout.read(), daemon=True).start()

# each student is a browser of their own: a cookie jar (the session the server gives at /api/join)
jars = {}
def call(method, path, body=None, headers=None, raw=None, who=None):
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    req = urllib.request.Request("http://127.0.0.1:%d%s" % (port, path), data=data, method=method,
                                 headers={"Content-Type": "application/json", **(headers or {})})
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jars.setdefault(who, http.cookiejar.CookieJar())))
    try:
        r = opener.open(req, timeout=300)
        return r.status, r.read(), r.headers
    except urllib.error.HTTPError as e:
        return e.code, e.read(), e.headers

def stop(sig):
    t0 = time.time()
    server.send_signal(sig)
    rc = server.wait(timeout=30)
    return rc, time.time() - t0

start()
auth = {"Authorization": "Bearer " + token}
# the students join the class the server opened at its start (no code): each gets a session
for who in ("Ana", "李雷", "runner"):
    st, body, hd = call("POST", "/api/join", {"name": who}, who=who)
    check(st == 200 and "HttpOnly" in (hd.get("Set-Cookie") or "") and "SameSite=Strict" in hd.get("Set-Cookie"), "%s joins: %s %s %s" % (who, st, body[:200], hd.get("Set-Cookie")))

# health: the protections in force are named
st, body, _ = call("GET", "/api/health")
h = json.loads(body) if st == 200 else {}
check(st == 200 and h.get("ok") is True and "bubblewrap" in h.get("sandbox", ""), "health: %s %s" % (st, body[:200]))

# a right kernel: 200, and its result is the double sum of the input it loaded, within a float tree's tolerance
kernel = open(src + "/tests/own/one_block_sum.cu").read()
n = 200
st, body, _ = call("POST", "/api/trace", who="runner", body={"source": kernel, "entry": "k<<<1, 256>>>(in, out, n)", "n": n, "data": "random-float"})
if check(st == 200, "a right kernel traced: %s %s" % (st, body[:300])):
    t = json.loads(body)
    inputs = {}
    for e in t["events"]:
        if e["k"] == "global_load" and t["buffers"][e["g"]]["name"] == "in":
            for a, v in zip(e["a"], e["v"]):
                inputs[a] = v
    check(sorted(inputs) == list(range(n)), "the trace loads each of the %d inputs once: %d words" % (n, len(inputs)))
    ref = math.fsum(inputs.values())
    tol = (math.ceil(math.log2(n)) + 2) * 2.0 ** -24 * sum(abs(v) for v in inputs.values())
    check(abs(t["result"] - ref) <= tol, "its sum %r against the double sum of its input %r (tolerance %g)" % (t["result"], ref, tol))
    check(t["provenance"]["source"] == "kernel.cu" and tmp not in body.decode(), "the trace names kernel.cu, not the server's folders")

# a syntax error: 422 at its line
broken = "__global__ void k(const float *in, float *out, unsigned n)\n{\n    out[0] = in[0]\n}\n"
st, body, _ = call("POST", "/api/trace", who="runner", body={"source": broken, "entry": "k<<<1, 32>>>(in, out, n)"})
err = json.loads(body).get("error", {}) if st == 422 else {}
check(st == 422 and err.get("line") == 3 and "expected ';'" in err.get("message", ""), "a syntax error: 422 at line 3: %s %s" % (st, body[:300]))

# an entry that is not a call of the file's own functions: 422, said of the entry
st, body, _ = call("POST", "/api/trace", who="runner", body={"source": kernel, "entry": 'system("touch /tmp/x")'})
err = json.loads(body).get("error", {}) if st == 422 else {}
check(st == 422 and err.get("field") == "entry" and "system" in err.get("message", ""), "an entry calling system(): 422 on the entry: %s %s" % (st, body[:300]))

# bad bodies: 413 over 1 MiB of source (and a body too large to read), 400 for JSON that is not, a missing field, a wrong type
st, body, _ = call("POST", "/api/trace", who="runner", body={"source": "x" * ((1 << 20) + 1), "entry": "k<<<1, 32>>>(in, out, n)"})
check(st == 413, "a source over 1 MiB: %s %s" % (st, body[:200]))
st, body, _ = call("POST", "/api/trace", raw=b"[" * (5 << 20), who="runner")
check(st == 413, "a body of 5 MiB: %s %s" % (st, body[:200]))
for raw, what in ((b"{\"source\": ", "JSON cut short"), (b"{\"entry\": \"k()\"}", "no source"), (b"{\"source\": 5, \"entry\": \"k()\"}", "a number for the source"),
                  (b"{\"source\": \"\", \"entry\": \"k()\", \"n\": -4}", "n below 1"), (b"{\"exercise\": \"02\"}", "no source")):
    st, body, _ = call("POST", "/api/check" if b"exercise" in raw else "/api/trace", raw=raw, who="runner")
    check(st == 400 and json.loads(body)["error"]["message"], "%s: 400 with a message: %s %s" % (what, st, body[:200]))

# exercise 02: the model solution meets every goal; a copy without the loop's barrier races and does not
good = open(src + "/tests/exercises/02-v1-padding.solution.cu").read()
racing = re.sub(r"(\n\s*\}\n)\s*__syncthreads\(\);\n(\s*\}\n)", r"\1\2", good, count=1)
check(racing != good, "the racing copy lost its barrier")
st, body, _ = call("POST", "/api/check", {"exercise": "02", "source": good}, who="Ana")
if check(st == 200, "the model solution checked: %s %s" % (st, body[:300])):
    f = json.loads(body)["files"][0]
    check(f["solved"] and f["met"] == len(f["goals"]) and all(g["met"] for g in f["goals"]), "the model solution meets every goal: %s" % f)
st, body, _ = call("POST", "/api/check", {"exercise": "v1-padding", "source": racing}, who="李雷")
racing_answer = body
if check(st == 200, "the racing copy checked: %s %s" % (st, body[:300])):
    f = json.loads(body)["files"][0]
    races = [g for g in f["goals"] if g["goal"].startswith("no races")]
    check(not f["solved"] and races and not races[0]["met"] and races[0]["value"] > 0, "the racing copy misses the race goal: %s" % f)

# a hostile file: system() and a socket from its host code change nothing outside the sandbox
listen = socket.socket()
listen.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listen.bind(("127.0.0.1", 0))
listen.listen(5)
listen.settimeout(0.5)
marker = tmp + "/system-ran"
hostile = kernel + """
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>
void run(const float *in, float *out, unsigned n)
{
    system("echo x > %s");
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons(%d);
    a.sin_addr.s_addr = htonl(0x7f000001);
    if (fd >= 0) connect(fd, (struct sockaddr *)&a, sizeof a);
    k<<<1, 256>>>(in, out, n);
}
""" % (marker, listen.getsockname()[1])
st, body, _ = call("POST", "/api/trace", who="runner", body={"source": hostile, "entry": "run(in, out, n)", "n": 256, "data": "ones"})
check(st == 200 and json.loads(body)["result"] == 256, "the hostile file's kernel still runs (its sum of 256 ones): %s %s" % (st, body[:300]))
connected = False
try:
    listen.accept()
    connected = True
except OSError:
    pass
check(not os.path.exists(marker), "system() wrote a marker outside the sandbox")
check(not connected, "the hostile file reached a listener of this machine")

# the racing copy checked again: the same answer, from the judgement kept (no third check ran), a second try
st, again, _ = call("POST", "/api/check", {"exercise": "02", "source": racing}, who="李雷")
check(st == 200 and json.loads(again)["files"] == json.loads(racing_answer)["files"], "the racing copy checked again: %s %s" % (st, again[:300]))

# what the server ran, by kind, as /api/health counts it: the traces built and the two checks
st, body, _ = call("GET", "/api/health")
ran = json.loads(body).get("ran", {}) if st == 200 else {}
check(ran.get("checked", {}).get("count") == 2 and ran.get("built", {}).get("count", 0) >= 2 and ran["checked"]["mean_ms"] > 0,
      "health counts what ran (2 checks, the traces built): %s" % ran)

# the page's files may be kept by a browser and are asked again: 304 while the file is the same
st, page, hd = call("GET", "/")
etag = hd.get("ETag") if st == 200 else None
check(etag and hd.get("Cache-Control") == "no-cache", "the page has an ETag and is asked again: %s %s %s" % (st, etag, hd.get("Cache-Control")))
if etag:
    st, body, _ = call("GET", "/", headers={"If-None-Match": etag})
    check(st == 304 and not body, "the page again with its ETag: %s, %d bytes" % (st, len(body)))
    st, body, _ = call("GET", "/", headers={"If-None-Match": '"0000000000000000"'})
    check(st == 200 and body == page, "the page with another ETag: %s" % st)
st, _, hd = call("GET", "/api/class", headers=auth)
check(hd.get("Cache-Control") == "no-store", "an answer is never kept: %s" % hd.get("Cache-Control"))

# the teacher's view: 401 without the token or with another, 200 with it, both students there
st, _, hd = call("GET", "/api/class")
check(st == 401 and "Bearer" in (hd.get("WWW-Authenticate") or ""), "the class without a token: %s" % st)
st, _, _ = call("GET", "/api/class", headers={"Authorization": "Bearer not-the-token"})
check(st == 401, "the class with another token: %s" % st)
def class_view():
    st, body, _ = call("GET", "/api/class", headers=auth)
    if not check(st == 200, "the class with its token: %s %s" % (st, body[:200])):
        return {}
    return {s["name"]: {e["exercise"]: e for e in s["exercises"]} for s in json.loads(body)["students"]}
before = class_view()
ana, li = before.get("Ana", {}).get("exercise-v1-padding"), before.get("李雷", {}).get("exercise-v1-padding")
check(ana and ana["solved"] and ana["first_missed"] is None and ana["tries"] == 1, "Ana's try: %s" % ana)
check(li and not li["solved"] and li["first_missed"] and li["met"] < li["goals"] and li["tries"] == 2, "李雷's two tries: %s" % li)
st, body, _ = call("GET", "/class")
check(st == 200 and 'type="password"' in body.decode() and "api/class/signin" in body.decode(), "the teacher's page signed out is its sign-in: %s" % st)
st, _, hd = call("POST", "/api/class/signin", {"token": token}, who="teacher")
check(st == 200 and "HttpOnly" in (hd.get("Set-Cookie") or ""), "the teacher signs in: %s %s" % (st, hd.get("Set-Cookie")))
st, body, _ = call("GET", "/class?lang=zh", who="teacher")
check(st == 200 and "班级" in body.decode() and "/api/class" in body.decode() and token not in body.decode(), "the teacher's page in Chinese, signed in: %s" % st)
st, body, _ = call("GET", "/api/class/last?student=Ana&exercise=exercise-v1-padding", headers=auth)
check(st == 200 and json.loads(body).get("schema") == "warpscope-trace", "Ana's last picture: %s %s" % (st, body[:200]))

# a restart keeps the record: SIGTERM stops it promptly and cleanly, then kill -9 loses nothing
rc, secs = stop(signal.SIGTERM)
check(rc == 0 and secs < 10, "SIGTERM: exit %s after %.1f s" % (rc, secs))
start()
check(class_view() == before, "the class after a restart is the class before it")
st, body, _ = call("POST", "/api/check", {"exercise": "02", "source": good + "// again"}, who="Ana")
check(st == 200, "a try after the restart (the session kept): %s" % st)
server.kill()
server.wait()
start()
after = class_view()
check(after.get("Ana", {}).get("exercise-v1-padding", {}).get("tries") == 2, "Ana's second try survives kill -9: %s" % after.get("Ana"))
stop(signal.SIGINT)
sys.exit(1 if fails else 0)
EOF
