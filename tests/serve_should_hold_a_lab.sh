#!/bin/sh
# warpscope serve holds an exercise lab: started on a free port of 127.0.0.1 with a temporary --state,
# a run limit of 2 s and 2 workers, it is asked, and must answer, as a lab asks it:
# - who a student is: a Run or a Check without a session is 401; a student joins once (an HttpOnly,
#   SameSite=Strict cookie) and a name taken by one session is refused to another (409); a try is the
#   session's, whatever name its body says; the teacher opens a class with a code and a roster (a
#   wrong code 404, a name off the roster 403), removes a student's tries, closes the class (a try
#   then 401: join the open one); twenty students behind one address Run at once and none is refused (429); a student's
#   second Run replaces the first (409 for the first, 200 for the second);
# - the record bounded: the same Check twice is one row (pressed twice), the same picture of two
#   students one blob; a --state folder open to others, or a class.db that is a link, is refused;
#   class.db is 0600;
# - requests checked: a POST not as application/json is 415, from another Origin 403; names of
#   invalid UTF-8, with a NUL, blank, or over 64 characters are 400 (64 Chinese characters are a
#   name); a define of a name warpscope's header uses is 400, never 500; a body of 4 MB of [0,0,...]
#   is refused (400) without the server's memory growing by the parse;
# - the teacher's view: the token is never in /class's page; a sign-in gives a cookie; the source of
#   a try comes beside its picture; a compile error clears the picture of the try before it;
# - long runs: a loop that never ends is stopped at the server's --run-limit (2 s, not the
#   command line's 15); while three students Run such loops, another student's cached trace is
#   answered within 2 s; a Run that cannot start within 20 s (one worker held by a sleeping loop of 40 s) is
#   answered 429 with a Retry-After, not later.
# Skips (77) where the build has no serve or the machine gives no sandbox.
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
import http.cookiejar, json, os, re, signal, sqlite3, stat, subprocess, sys, threading, time, urllib.request, urllib.error
ws, src, tmp = sys.argv[1:4]
token = "teacher-token-42"
fails = []
checked = []
def check(cond, what):
    checked.append(what)
    if not cond:
        print("FAIL:", what)
        fails.append(what)
    return cond

def serve(state, *extra, workers="2"):
    p = subprocess.Popen([ws, "serve", "--port", "0", "--state", state, "--token", token, "--workers", workers, *extra],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    open(tmp + "/serve.pids", "a").write("%d\n" % p.pid)
    line = p.stdout.readline()
    m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not m:
        p.wait(timeout=30)
        return p, None, p.stderr.read()
    threading.Thread(target=lambda: p.stdout.read(), daemon=True).start()
    threading.Thread(target=lambda: p.stderr.read(), daemon=True).start()
    return p, int(m.group(1)), ""

# the state folder, checked as the cache is
os.makedirs(tmp + "/open", mode=0o777)
os.chmod(tmp + "/open", 0o777)
p, port, err = serve(tmp + "/open")
check(port is None and p.returncode == 2 and "0700" in err and err.count("\n") == 1, "a --state folder open to others is refused in one line: %r" % err)
os.makedirs(tmp + "/linked", mode=0o700)
os.symlink(tmp + "/elsewhere.db", tmp + "/linked/class.db")
p, port, err = serve(tmp + "/linked")
check(port is None and "link" in err and not os.path.exists(tmp + "/elsewhere.db"), "a class.db that is a link is refused, not followed: %r" % err)

state = tmp + "/state"
server, port, err = serve(state, "--run-limit", "2")
if not port:
    print("FAIL: serve did not start:", err)
    sys.exit(1)
check(stat.S_IMODE(os.stat(state).st_mode) == 0o700 and stat.S_IMODE(os.stat(state + "/class.db").st_mode) == 0o600,
      "the state folder is 0700 and class.db 0600: %o %o" % (os.stat(state).st_mode, os.stat(state + "/class.db").st_mode))

jars = {}
def call(method, path, body=None, headers=None, raw=None, who=None, timeout=120):
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    h = {"Content-Type": "application/json"}
    h.update(headers or {})
    req = urllib.request.Request("http://127.0.0.1:%d%s" % (port, path), data=data, method=method, headers={k: v for k, v in h.items() if v is not None})
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jars.setdefault(who, http.cookiejar.CookieJar())))
    try:
        r = opener.open(req, timeout=timeout)
        return r.status, r.read(), r.headers
    except urllib.error.HTTPError as e:
        return e.code, e.read(), e.headers
auth = {"Authorization": "Bearer " + token}
def message(body):
    try:
        return json.loads(body)["error"]["message"]
    except (ValueError, KeyError, TypeError):
        return ""

kernel = open(src + "/tests/own/one_block_sum.cu").read()
entry = "k<<<1, 256>>>(in, out, n)"
good = open(src + "/tests/exercises/02-v1-padding.solution.cu").read()
loop = "__global__ void k(const float *in, float *out, unsigned n)\n{\n    volatile int spin = 1;\n    while (spin) {\n    }\n}\n"

# ---- requests checked ----
st, body, _ = call("POST", "/api/join", {"name": "Ana"}, headers={"Content-Type": "text/plain"})
check(st == 415 and message(body), "a POST as text/plain: 415: %s %s" % (st, body[:200]))
st, body, _ = call("POST", "/api/join", {"name": "Ana"}, headers={"Origin": "http://evil.example"})
check(st == 403 and message(body), "a POST from another Origin: 403: %s %s" % (st, body[:200]))
for raw, what in ((b'{"name": "\xff\xfe"}', "invalid UTF-8"), (b'{"name": "\xed\xa0\x80"}', "a UTF-16 surrogate"), (b'{"name": "\xe0\x80\xaf"}', "an overlong form"), (b'{"name": "A\\u0000B"}', "a NUL"), (b'{"name": "   "}', "blank"),
                  (json.dumps({"name": "x" * 65}).encode(), "65 characters"), (b'{"name": "a\\u0007"}', "a control character")):
    st, body, _ = call("POST", "/api/join", raw=raw, who="bad")
    check(st == 400 and message(body), "a name of %s: 400 with one line: %s %s" % (what, st, body[:200]))
st, body, _ = call("POST", "/api/join", {"name": "李" * 64}, who="long")
check(st == 200, "a name of 64 Chinese characters: %s %s" % (st, body[:200]))
with open("/proc/%d/status" % server.pid) as f:
    rss0 = int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))
arr = b'{"source": [' + b",".join([b"0"] * (2 * 1000 * 1000 - 10)) + b"]}"
st, body, _ = call("POST", "/api/join", raw=arr, who="bad")
with open("/proc/%d/status" % server.pid) as f:
    rss1 = int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))
check(st == 400 and "values" in message(body) and rss1 - rss0 < 64 * 1024, "4 MB of [0,0,...]: 400 (%s) and %d kB more memory" % (message(body), rss1 - rss0))

# ---- who a student is ----
st, body, _ = call("POST", "/api/check", {"exercise": "02", "source": good, "student": "Ana"})
check(st == 401 and "join" in message(body), "a Check without a session: 401: %s %s" % (st, body[:200]))
st, body, _ = call("POST", "/api/trace", {"source": kernel, "entry": entry})
check(st == 401, "a Run without a session: 401: %s" % st)
st, body, hd = call("POST", "/api/join", {"name": "Ana"}, who="Ana")
cookie = hd.get("Set-Cookie") or ""
check(st == 200 and "ws_session=" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie, "Ana joins: %s %s" % (st, cookie))
st, body, _ = call("POST", "/api/join", {"name": "Ana"}, who="mallory")
check(st == 409, "Ana's name taken by another session: 409: %s %s" % (st, body[:200]))
st, body, _ = call("POST", "/api/join", {"name": "Ana"}, who="Ana")
check(st == 200, "Ana joining again with her own session: %s" % st)
st, body, _ = call("POST", "/api/join", {"name": "Bo"}, who="Bo")
st, body, _ = call("POST", "/api/check", {"exercise": "02", "source": good, "student": "Ana"}, who="Bo")
check(st == 400 and "Bo" in message(body), "Bo's session sending Ana's name: 400: %s %s" % (st, body[:200]))
st, body, _ = call("POST", "/api/check", {"exercise": "02", "source": good}, who="Ana")
check(st == 200 and json.loads(body).get("student") == "Ana", "Ana's Check: %s %s" % (st, body[:200]))
st, body, _ = call("POST", "/api/check", {"exercise": "02", "source": good}, who="Ana")
st2, body2, _ = call("POST", "/api/check", {"exercise": "02", "source": good}, who="Bo")
check(st == 200 and st2 == 200, "the same Check again, and by Bo: %s %s" % (st, st2))
db = sqlite3.connect(state + "/class.db")
rows = db.execute("SELECT student, times, picture FROM lab_tries ORDER BY student").fetchall()
blobs = db.execute("SELECT COUNT(*) FROM lab_blobs").fetchone()[0]
check([r[:2] for r in rows] == [("Ana", 2), ("Bo", 1)] and rows[0][2] == rows[1][2] and blobs == 2,
      "one row per distinct judgement (Ana's pressed twice), one picture and one source kept for both: %s, %d blobs" % (rows, blobs))

# twenty students behind one address, a Run each at once: none refused
src20 = kernel + "// twenty\n"
st, body, _ = call("POST", "/api/join", {"name": "s00"}, who="s00")
st, body, _ = call("POST", "/api/trace", {"source": src20, "entry": entry, "n": 256}, who="s00")  # built once: the others' Runs are cached
check(st == 200, "the first Run of the twenty: %s %s" % (st, body[:200]))
answers = {}
def run20(i):
    who = "s%02d" % i
    call("POST", "/api/join", {"name": who}, who=who)
    answers[who] = call("POST", "/api/trace", {"source": src20, "entry": entry, "n": 256}, who=who)[0]
threads = [threading.Thread(target=run20, args=(i,)) for i in range(20)]
for t in threads: t.start()
for t in threads: t.join()
check(sorted(answers.values()) == [200] * 20, "twenty Runs from one address at once: %s" % sorted(answers.values()))

# a second Run replaces the first
first = {}
def loop_run():
    first["st"], first["body"], _ = call("POST", "/api/trace", {"source": loop + "// first\n", "entry": entry}, who="Ana")
t = threading.Thread(target=loop_run)
t.start()
# the second is sent once the first is in flight (building or tracing), however loaded the machine
for _ in range(100):
    h = json.loads(call("GET", "/api/health")[1])
    if h.get("building", 0) + h.get("tracing", 0) >= 1:
        break
    time.sleep(0.05)
st, body, _ = call("POST", "/api/trace", {"source": kernel, "entry": entry, "n": 256}, who="Ana")
t.join()
check(first.get("st") == 409 and st == 200, "a second Run replaces the first: the first %s %s, the second %s" % (first.get("st"), message(first.get("body", b"")), st))

# ---- long runs: the server's own limit; loops hold up no one's cached trace ----
t0 = time.time()
st, body, _ = call("POST", "/api/trace", {"source": loop, "entry": entry}, who="Bo")
secs = time.time() - t0
check(st == 422 and secs < 12, "a loop stopped at the server's 2 s: %s after %.1f s: %s" % (st, secs, body[:200]))
for i in range(3):
    call("POST", "/api/join", {"name": "loop%d" % i}, who="loop%d" % i)
done = []
def loops(i):
    for k in range(2):
        done.append(call("POST", "/api/trace", {"source": loop, "entry": entry}, who="loop%d" % i)[0])
threads = [threading.Thread(target=loops, args=(i,)) for i in range(3)]
for t in threads: t.start()
time.sleep(0.5)
worst = 0
for k in range(3):
    t0 = time.time()
    st, body, _ = call("POST", "/api/trace", {"source": kernel, "entry": entry, "n": 256}, who="Ana")
    worst = max(worst, time.time() - t0)
    check(st == 200, "Ana's cached trace among the loops: %s" % st)
for t in threads: t.join()
check(worst < 2.0, "Ana's cached trace while three students Run loops: the slowest %.2f s" % worst)

# ---- defines ----
for d, what in (("A", "a name of warpscope's header"), ("1X", "not a name"), ("_X", "the compiler's")):
    st, body, _ = call("POST", "/api/trace", {"source": kernel, "entry": entry, "defines": [d]}, who="Ana")
    check(st == 400 and message(body) and "ws_cuda" not in body.decode() and src not in body.decode(), "define %s (%s): 400: %s %s" % (d, what, st, body[:200]))

# ---- the teacher ----
st, page, _ = call("GET", "/class")
check(st == 200 and token not in page.decode() and "token=" not in page.decode(), "the sign-in page holds no token")
st, body, hd = call("POST", "/api/class/signin", {"token": "wrong-token-00"}, who="teacher")
check(st == 401, "a wrong token at sign-in: %s" % st)
st, body, hd = call("POST", "/api/class/signin", {"token": token}, who="teacher")
check(st == 200 and "ws_teacher=" in (hd.get("Set-Cookie") or "") and "HttpOnly" in hd.get("Set-Cookie"), "the teacher signs in: %s %s" % (st, hd.get("Set-Cookie")))
st, page, _ = call("GET", "/class", who="teacher")
check(st == 200 and "api/class/source" in page.decode() and token not in page.decode(), "the teacher's page, signed in, without the token")
st, body, _ = call("GET", "/api/class/source?student=Ana&exercise=exercise-v1-padding", who="teacher")
check(st == 200 and json.loads(body)["source"] == good and json.loads(body)["student"] == "Ana", "Ana's source beside her picture: %s %s" % (st, body[:100]))
st, body, _ = call("GET", "/api/class/last?student=Ana&exercise=exercise-v1-padding", who="teacher")
check(st == 200 and json.loads(body).get("schema") == "warpscope-trace", "Ana's picture: %s" % st)
st, body, _ = call("POST", "/api/check", {"exercise": "02", "source": good.replace("__syncthreads();", "__syncthreads()", 1)}, who="Ana")
check(st == 200 and not json.loads(body)["files"][0]["ran"], "a compile error checked: %s %s" % (st, body[:200]))
st, body, _ = call("GET", "/api/class/last?student=Ana&exercise=exercise-v1-padding", who="teacher")
check(st == 404, "a compile error clears the picture of the try before it: %s" % st)
st, body, _ = call("POST", "/api/class/remove", {"student": "Bo"}, who="teacher")
check(st == 200 and json.loads(body)["removed"] == 1, "the teacher removes Bo's tries: %s %s" % (st, body[:200]))
st, body, _ = call("GET", "/api/class", headers=auth)
names = [s["name"] for s in json.loads(body)["students"]] if st == 200 else []
check("Bo" not in names and "Ana" in names, "Bo's tries are gone from the view: %s" % names)
st, body, _ = call("POST", "/api/class/open", {"code": "LAB7", "roster": ["Cy", "Di"]}, who="teacher")
check(st == 200 and json.loads(body)["code"] == "LAB7", "the teacher opens a class with a code and a roster: %s %s" % (st, body[:200]))
st, body, _ = call("POST", "/api/join", {"name": "Cy", "code": "NOPE"}, who="Cy")
check(st == 404, "a wrong code: 404: %s" % st)
st, body, _ = call("POST", "/api/join", {"name": "Eve", "code": "LAB7"}, who="Eve")
check(st == 403, "a name off the roster: 403: %s" % st)
st, body, _ = call("POST", "/api/join", {"name": "Cy", "code": "LAB7"}, who="Cy")
check(st == 200, "Cy joins with the code: %s %s" % (st, body[:200]))
st, body, _ = call("POST", "/api/check", {"exercise": "02", "source": good}, who="Ana")
check(st == 401 and "closed" in message(body), "Ana's class, closed when the new one opened: 401 (join again): %s %s" % (st, body[:200]))
st, body, _ = call("POST", "/api/class/state", {"state": "archived"}, who="teacher")
st2, body2, _ = call("POST", "/api/check", {"exercise": "02", "source": good}, who="Cy")
check(st == 200 and st2 == 401, "the class archived, Cy's Check: %s %s" % (st, st2))

# a Run that cannot start within 20 s is answered 429 with a Retry-After, not late: one worker held
# by a sleeping loop for up to 40 s (its server's --run-limit), a second student's Run behind it
main_port = port
slow, port, err = serve(tmp + "/slowstate", "--run-limit", "40", workers="1")
if check(port is not None, "a second server, one worker: %s" % err):
    for who in ("w1", "w2"):
        call("POST", "/api/join", {"name": who}, who=who)
    # a host loop that sleeps: no turn limit stops it, only the run's wall clock (two thirds of 40 s)
    hold = "#include <unistd.h>\n" + kernel + "void hold(float *in, float *out, unsigned n)\n{\n    volatile int spin = 1;\n    while (spin) {\n        usleep(100000);\n    }\n}\n"
    held = threading.Thread(target=lambda: call("POST", "/api/trace", {"source": hold, "entry": "hold(in, out, n)"}, who="w1"))
    held.start()
    for _ in range(200):
        if json.loads(call("GET", "/api/health")[1]).get("building", 0) >= 1:
            break
        time.sleep(0.05)
    t0 = time.time()
    st, body, hd = call("POST", "/api/trace", {"source": kernel + "// behind\n", "entry": entry, "n": 256}, who="w2")
    secs = time.time() - t0
    check(st == 429 and (hd.get("Retry-After") or "").isdigit() and 17 <= secs <= 24,
          "a Run behind a 40 s loop on the one worker: %s after %.1f s, Retry-After %s: %s" % (st, secs, hd.get("Retry-After"), message(body)))
    slow.send_signal(signal.SIGTERM)
    slow.wait(timeout=30)
    held.join()
port = main_port

# SIGTERM stops it promptly
t0 = time.time()
server.send_signal(signal.SIGTERM)
rc = server.wait(timeout=30)
check(rc == 0 and time.time() - t0 < 10, "SIGTERM: exit %s after %.1f s" % (rc, time.time() - t0))
print("serve_should_hold_a_lab: %d of %d checks held" % (len(checked) - len(fails), len(checked)))
sys.exit(1 if fails else 0)
EOF
