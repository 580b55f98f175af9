#!/bin/sh
# warpscope serve takes a define that names nothing warpscope's headers declare: THREAD_PER_BLOCK=256
# (which the course notes' kernels need, and which the headers name only in a comment) builds a
# one-block tree sum of 256 ones into 256 (a count, the reference); a define of a name the headers
# declare in their code (N, a template parameter of ws_cuda.h; emu_shared_region, a function) is
# 400 naming it; "the", a word of their comments only, is taken. The server stops whatever happens.
# The file run is the project's own (WARPSCOPE_UNSAFE=1 where the machine gives no sandbox).
ws="$1"
src="$2"
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
"$ws" serve --port 0 --state "$tmp/state" --workers 1 >"$tmp/out" 2>"$tmp/err" &
pid=$!
python3 - "$src" "$tmp" <<'PY'
import json, re, sys, time, urllib.request, urllib.error
src, tmp = sys.argv[1:3]
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
cookie = None
def call(path, body):
    global cookie
    h = {"Content-Type": "application/json", "Origin": base}
    if cookie: h["Cookie"] = cookie
    try:
        r = urllib.request.urlopen(urllib.request.Request(base + path, data=json.dumps(body).encode(), headers=h), timeout=300)
        st, b, hd = r.status, r.read(), r.headers
    except urllib.error.HTTPError as e:
        st, b, hd = e.code, e.read(), e.headers
    if hd.get("Set-Cookie"): cookie = hd.get("Set-Cookie").split(";")[0]
    return st, b
check(call("/api/join", {"name": "Ana"})[0] == 200, "Ana joins")
kernel = open(src + "/tests/own/one_block_sum.cu").read().replace("s[256]", "s[THREAD_PER_BLOCK]").replace("st = 128", "st = THREAD_PER_BLOCK / 2")
check("THREAD_PER_BLOCK" in kernel, "the kernel needs THREAD_PER_BLOCK")
ask = {"source": kernel, "entry": "k<<<1, 256>>>(in, out, n)", "n": 256, "data": "ones"}
st, body = call("/api/trace", dict(ask, defines=["THREAD_PER_BLOCK=256"]))
res = json.loads(body).get("result") if st == 200 else None
check(st == 200 and res == 256, "THREAD_PER_BLOCK=256: the sum of 256 ones is 256: %s %s" % (st, res if st == 200 else body[:300]))
for name in ("N", "emu_shared_region"):
    st, body = call("/api/trace", dict(ask, defines=["THREAD_PER_BLOCK=256", name + "=1"]))
    check(st == 400 and name.encode() in body, "%s, declared in the headers' code: 400 naming it: %s %s" % (name, st, body[:200]))
st, body = call("/api/trace", dict(ask, defines=["THREAD_PER_BLOCK=256", "the=1"]))
check(st == 200, "\"the\", a word of the headers' comments only: taken: %s %s" % (st, body[:200]))
sys.exit(1 if fails else 0)
PY
rc=$?
[ $rc = 0 ] && echo "serve_should_take_a_define_its_headers_do_not_declare: passed"
exit $rc
