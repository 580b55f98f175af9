#!/bin/sh
# warpscope serve keeps a learner's source only once its build has a place, and within a quota: one
# student sends 33 different sources of 1,041,045 bytes each (comments only: the front end refuses
# each at once, 422); the first 32 (33.3 MB) fit SERVE_SOURCE_BYTES_STUDENT (32 MiB = 33,554,432
# bytes) and are kept, the 33rd would pass it and is 429 with a Retry-After, and nothing of it is
# written (serve-sources holds 32 folders); a source sent before costs nothing (422 again, not 429);
# another student's source is still taken. The server stops whatever happens.
ws="$1"
command -v python3 >/dev/null 2>&1 || { echo "FAIL: python3 is needed for this test"; exit 1; }
if "$ws" serve --state /nonexistent/probe --bind not-an-address 2>&1 | grep -q "built without the class server"; then
    echo "SKIP: this build has no class server (libmicrohttpd-dev, libsqlite3-dev)"
    exit 77
fi
tmp=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
export HOME="$tmp/home" XDG_CACHE_HOME="$tmp/cache"
# the sandbox where the machine gives one; the files run are the project\'s own
"$ws" --version | grep -q "^sandbox for a learner\'s file: bubblewrap" || export WARPSCOPE_UNSAFE=1
mkdir -p "$HOME"
"$ws" serve --port 0 --state "$tmp/state" --workers 2 >"$tmp/out" 2>"$tmp/err" &
pid=$!
python3 - "$tmp" <<'PY'
import json, os, re, sys, time, urllib.request, urllib.error
tmp = sys.argv[1]
fails = []
def check(c, what):
    print(("ok   " if c else "FAIL ") + what)
    if not c: fails.append(what)
port = None
for _ in range(300):
    m = re.search(r"http://127\.0\.0\.1:(\d+)/", open(tmp + "/out").read())
    if m: port = int(m.group(1)); break
    time.sleep(0.1)
if not port: print("FAIL: serve did not start:", open(tmp + "/err").read()); sys.exit(1)
base = "http://127.0.0.1:%d" % port
def call(path, body, cookie=None):
    h = {"Content-Type": "application/json", "Origin": base}
    if cookie: h["Cookie"] = cookie
    try:
        r = urllib.request.urlopen(urllib.request.Request(base + path, data=json.dumps(body).encode(), headers=h), timeout=120)
        return r.status, r.read(), r.headers
    except urllib.error.HTTPError as e:
        return e.code, e.read(), e.headers
def join(name):
    st, _, hd = call("/api/join", {"name": name})
    return hd.get("Set-Cookie").split(";")[0] if st == 200 else None
left = 3600 - time.time() % 3600  # the quota's window is the clock's hour: not crossed while counting
if left < 40: time.sleep(left + 1)
ana, bo = join("Ana"), join("Bo")
check(ana and bo, "two students join")
src = lambda i: "// %d\n" % i + ("/" * 1000 + "\n") * 1040
size = len(src(0).encode())
quota = 32 << 20
fit = quota // size
check(fit == 32, "%d sources of %d bytes fit the quota of %d" % (fit, size, quota))
codes = [call("/api/trace", {"source": src(i), "entry": "k(in, out, n)"}, ana)[0] for i in range(fit)]
check(codes == [422] * fit, "the first %d are taken (each refused by the front end, 422): %s" % (fit, sorted(set(codes))))
sources = tmp + "/cache/warpscope/serve-sources"
def kept(): return len([d for d in os.listdir(sources) if not d.startswith(".")])
before = kept()
st, body, hd = call("/api/trace", {"source": src(fit), "entry": "k(in, out, n)"}, ana)
check(st == 429 and (hd.get("Retry-After") or "").isdigit(), "the next is 429 with a Retry-After: %s %s" % (st, body[:160]))
check(kept() == before == fit, "and nothing of it is written: %d source folders, %d before" % (kept(), before))
st, *_ = call("/api/trace", {"source": src(0), "entry": "k(in, out, n)"}, ana)
check(st == 422, "a source sent before costs nothing: %s" % st)
st, *_ = call("/api/trace", {"source": src(fit), "entry": "k(in, out, n)"}, bo)
check(st == 422, "another student's source is taken: %s" % st)
sys.exit(1 if fails else 0)
PY
rc=$?
[ $rc = 0 ] && echo "serve_should_keep_sources_within_a_quota: passed"
exit $rc
