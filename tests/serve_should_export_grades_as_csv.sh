#!/bin/sh
# warpscope serve's grades leave as CSV: a server on a free port with a temporary --state and three
# students (a right try of exercise 02, a try that races, and one who tried nothing; their names
# begin with =, + and @), GET /api/class/grades.csv answers 401 without the teacher's sign-in and
# with it a UTF-8 CSV (a byte-order mark first) whose first columns are Canvas's gradebook import's
# (Student, ID, SIS User ID, SIS Login ID, Section), a row per student, per exercise the goals met
# (the solution: every goal the exercise's file lists; the racing copy: fewer), solved (1/0), tries
# and the last try; a name that begins with =, +, - or @ written after an apostrophe; and
# `warpscope grades --state DIR` writes the same CSV from the folder once the server has stopped.
# The files run are the project's own (WARPSCOPE_UNSAFE=1 where the machine gives no sandbox).
ws="$1"
src="$2"
command -v python3 >/dev/null 2>&1 || { echo "FAIL: python3 is needed for this test"; exit 1; }
if "$ws" serve --state /nonexistent/probe --bind not-an-address 2>&1 | grep -q "built without the class server"; then
    echo "SKIP: this build has no class server (libmicrohttpd-dev, libsqlite3-dev)"
    exit 77
fi
tmp=$(mktemp -d)
pid=""
# the server stops whatever happens
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
export HOME="$tmp/home" XDG_CACHE_HOME="$tmp/cache" WARPSCOPE_TOKEN=grades-token-123
# the sandbox where the machine gives one; the files run are the project\'s own
"$ws" --version | grep -q "^sandbox for a learner\'s file: bubblewrap" || export WARPSCOPE_UNSAFE=1
mkdir -p "$HOME"
"$ws" serve --port 0 --state "$tmp/state" --workers 2 >"$tmp/out" 2>"$tmp/err" &
pid=$!
python3 - "$ws" "$src" "$tmp" <<'PY' || exit 1
import csv, io, json, re, subprocess, sys, time, urllib.request, urllib.error
ws, src, tmp = sys.argv[1:4]
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
def call(method, path, body=None, cookie=None, auth=False):
    h = {"Content-Type": "application/json", "Origin": base}
    if cookie: h["Cookie"] = cookie
    if auth: h["Authorization"] = "Bearer grades-token-123"
    req = urllib.request.Request(base + path, data=json.dumps(body).encode() if body is not None else None, method=method, headers=h)
    try:
        r = urllib.request.urlopen(req, timeout=300); return r.status, r.read(), r.headers
    except urllib.error.HTTPError as e:
        return e.code, e.read(), e.headers
good = open(src + "/tests/exercises/02-v1-padding.solution.cu").read()
racing = re.sub(r"(\n\s*\}\n)\s*__syncthreads\(\);\n(\s*\}\n)", r"\1\2", good, count=1)
ex02 = json.load(open(src + "/lessons/exercises/02-v1-padding.json"))
goals = len(ex02["exercise"]["goals"])
names = {"=SUM(A1:A9)": good, "+李雷": racing, "@idle": None}
for n, source in names.items():
    st, body, hd = call("POST", "/api/join", {"name": n})
    check(st == 200, "%s joins: %s" % (n, st))
    cookie = hd.get("Set-Cookie").split(";")[0]
    if source:
        st, body, _ = call("POST", "/api/check", {"exercise": "02", "source": source}, cookie=cookie)
        check(st == 200, "%s's try is judged: %s %s" % (n, st, body[:200]))
st, body, _ = call("GET", "/api/class/grades.csv")
check(st == 401, "without the teacher's sign-in: %s" % st)
st, body, hd = call("GET", "/api/class/grades.csv", auth=True)
check(st == 200 and hd.get("Content-Type", "").startswith("text/csv") and "attachment" in hd.get("Content-Disposition", ""),
      "with it: %s %s %s" % (st, hd.get("Content-Type"), hd.get("Content-Disposition")))
check(body.startswith(b"\xef\xbb\xbf"), "UTF-8 with a byte-order mark")
rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
head = rows[0]
check(head[:5] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"], "Canvas's first columns: %s" % head[:5])
col = [i for i, h in enumerate(head) if h.startswith(ex02["id"] + " ")]
check(len(col) == 5 and ("of %d" % goals) in head[col[0]] and "GB/s" in head[col[4]], "exercise 02's five columns: %s" % [head[i] for i in col])
by = {r[0]: r for r in rows[1:]}
check(sorted(by) == sorted("'" + n for n in names), "a row per student, each name neutralised: %s" % sorted(by))
if len(col) == 5 and len(by) == 3:
    g, r, i = by["'=SUM(A1:A9)"], by["'+李雷"], by["'@idle"]
    check(g[col[0]] == str(goals) and g[col[1]] == "1" and g[col[2]] == "1", "the solution: %s of %d, solved, 1 try: %s" % (g[col[0]], goals, g[col[:3][0]:col[2]+1]))
    check(int(r[col[0]]) < goals and r[col[1]] == "0" and r[col[2]] == "1", "the racing copy: fewer goals, not solved: %s" % r[col[0]:col[2]+1])
    check(re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$", g[col[3]]) is not None, "the last try in UTC: %s" % g[col[3]])
    check(i[col[0]] == "" and i[col[2]] == "0", "no try: no points, 0 tries: %s" % i[col[0]:col[2]+1])
    check(all(c == "" or not c[0] in "=+-@" for row in rows for c in row), "no cell begins with =, +, - or @")
open(tmp + "/served.csv", "wb").write(body)
sys.exit(1 if fails else 0)
PY
kill "$pid"; wait "$pid"; pid=""
"$ws" grades --state "$tmp/state" -o "$tmp/command.csv" 2>"$tmp/gerr" || { echo "FAIL: warpscope grades: $(cat "$tmp/gerr")"; exit 1; }
cmp -s "$tmp/served.csv" "$tmp/command.csv" || { echo "FAIL: warpscope grades --state differs from GET /api/class/grades.csv"; diff "$tmp/served.csv" "$tmp/command.csv" | head; exit 1; }
echo "ok   warpscope grades --state writes the same CSV"
"$ws" grades --state "$tmp/nothing" >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ] || { echo "FAIL: warpscope grades on a folder with no record: exit $rc, not 2"; exit 1; }
echo "serve_should_export_grades_as_csv: passed"
