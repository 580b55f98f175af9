#!/bin/sh
# warpscope serve answers a full disk as its own trouble: its cache folder (XDG_CACHE_HOME, where
# learners' sources are kept) on a tmpfs of 400 kB in a mount namespace of this test, a Run of a
# 500 kB source is 503 with a Retry-After, saying the server's disk is full and naming no path of
# the server's (not 422, which blames the learner's file). Skipped (77) where a mount namespace and a
# tmpfs cannot be made (not root, or a container that forbids it).
ws="$1"
src="$2"
command -v python3 >/dev/null 2>&1 || { echo "FAIL: python3 is needed for this test"; exit 1; }
if "$ws" serve --state /nonexistent/probe --bind not-an-address 2>&1 | grep -q "built without the class server"; then
    echo "SKIP: this build has no class server (libmicrohttpd-dev, libsqlite3-dev)"
    exit 77
fi
if [ "${WS_IN_NAMESPACE:-}" != 1 ]; then
    unshare -m true 2>/dev/null || { echo "SKIP: no mount namespace here (unshare -m)"; exit 77; }
    WS_IN_NAMESPACE=1 exec unshare -m sh "$0" "$@"
fi
tmp=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; umount "$tmp/cache" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
mkdir -p "$tmp/cache" "$tmp/home"
mount -t tmpfs -o size=400k,mode=0700 tmpfs "$tmp/cache" 2>/dev/null || { echo "SKIP: a tmpfs cannot be mounted here"; exit 77; }
export HOME="$tmp/home" XDG_CACHE_HOME="$tmp/cache"
# the sandbox where the machine gives one; the files run are the project\'s own
"$ws" --version | grep -q "^sandbox for a learner\'s file: bubblewrap" || export WARPSCOPE_UNSAFE=1
"$ws" serve --port 0 --state "$tmp/state" --workers 1 >"$tmp/out" 2>"$tmp/err" &
pid=$!
python3 - "$tmp" "$src" <<'PY'
import json, re, sys, time, urllib.request, urllib.error
tmp, src = sys.argv[1:3]
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
st, _, hd = call("/api/join", {"name": "Ana"})
cookie = hd.get("Set-Cookie").split(";")[0]
kernel = open(src + "/tests/own/one_block_sum.cu").read() + "// " + "x" * 500000 + "\n"
st, body, hd = call("/api/trace", {"source": kernel, "entry": "k<<<1, 256>>>(in, out, n)"}, cookie)
msg = json.loads(body).get("error", {}).get("message", "") if body else ""
ok = st == 503 and (hd.get("Retry-After") or "").isdigit() and "disk is full" in msg and tmp not in msg and "/" not in msg
print(("ok   " if ok else "FAIL ") + "a source the full disk cannot keep: %s %s" % (st, msg))
sys.exit(0 if ok else 1)
PY
rc=$?
[ $rc = 0 ] && echo "serve_should_answer_a_full_disk_as_its_own: passed"
exit $rc
