#!/bin/sh
# warpscope serve times every Check whose trace goals are met on the GPU, in a queue of its own, and
# the class sees it. No GPU is needed: WARPSCOPE_GPU_TIMER names a stand-in for `warpscope bench`
# (written here) that answers with bench's JSON from what the file says of itself ("// card: 1500"
# GB/s, "wrong", "hang", "forged"); the card's own figures (best read 4000, CUB 3000 GB/s at 2^26) come
# from its calibration run, which has no learner's file. Checked: /api/health names the card; a
# solved Check's answer has a queued timing whose result (GET /api/gpu) is the stand-in's figure over
# the calibration's best read, at the exercise's GPU sizes and one drawn between them (not a multiple of 256);
# a file that misses a goal is not timed; a sum wrong on the card, a run that never ends (stopped at
# --gpu-limit, the next timing still made) and a figure faster than the card reads are each said;
# two timings at once start beside each other, but have the card's turn one after the other
# (the stand-in keeps bench's --card-turn: ready on descriptor 3, its turn read on 4);
# another student cannot read a timing; a student's tries come back oldest first; the leaderboard
# (the teacher's) ranks each student's fastest; the grades CSV carries the best GB/s; past
# --gpu-queue, POST /api/gpu is 429 with a Retry-After. On a machine with a GPU, the device run
# (tools/device-gpu-lab.sh) proves the same with warpscope's own bench.
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
export HOME="$tmp/home" XDG_CACHE_HOME="$tmp/cache" WARPSCOPE_TOKEN=gpu-token-1234
"$ws" --version | grep -q "^sandbox for a learner\'s file: bubblewrap" || export WARPSCOPE_UNSAFE=1
mkdir -p "$HOME"
cat >"$tmp/stand-in" <<'PY'
#!/usr/bin/env python3
# a stand-in for `warpscope bench`: bench's JSON from what the file says of itself
import json, os, re, sys, time
a = sys.argv[1:]
def arg(name):
    return a[a.index(name) + 1] if name in a else None
open(sys.argv[0] + ".calls", "a").write(" ".join(a) + "\n")
started = time.time()
sizes = [int(x) for x in arg("--sizes").split(",")]
rows = []
kernel = arg("--kernel")
say = re.search(r"// card: (\S+)", open(kernel).read()).group(1) if kernel else None
if "--card-turn" in a: # as bench's child: CUDA started, then ready, then the card's turn
    time.sleep(0.5)
    os.write(3, b"r")
    if os.read(4, 1) != b"g": sys.exit(2)
turn = time.time()
if say == "hang":
    time.sleep(3600)
if say == "slow":
    time.sleep(3)
    say = "1000"
if kernel: open(sys.argv[0] + ".turns", "a").write("%f %f %f %s\n" % (started, turn, time.time(), os.path.basename(kernel)))
for n in sizes:
    if kernel:
        if say == "wrong":
            rows.append({"name": "kernel", "kind": "kernel", "mode": "launch", "n": n, "ms": 0, "gbs": 0, "ok": False, "got": 1.0, "reference": 2.0})
        else:
            gbs = 99999.0 if say == "forged" else float(say)
            rows.append({"name": "kernel", "kind": "kernel", "mode": "launch", "n": n, "ms": 4.0 * n / gbs / 1e6, "gbs": gbs, "ok": True})
    rows.append({"name": "cub", "kind": "library", "mode": "launch", "n": n, "gbs": 3000.0 if not kernel else 99999.0, "ok": True})
    rows.append({"name": "best-read", "kind": "read", "mode": "launch", "n": n, "gbs": 4000.0 if not kernel else 99999.0, "ok": True})
json.dump({"schema": "warpscope-bench", "schema_version": 2, "device": "a stand-in card", "rows": rows}, open(arg("--json"), "w"))
sys.exit(1 if say == "wrong" else 0)
PY
chmod +x "$tmp/stand-in"
WARPSCOPE_GPU_TIMER="$tmp/stand-in" "$ws" serve --port 0 --state "$tmp/state" --workers 2 --gpu --gpu-limit 15 --gpu-queue 2 >"$tmp/out" 2>"$tmp/err" &
pid=$!
python3 - "$ws" "$src" "$tmp" <<'PY' || exit 1
import csv, io, json, re, sys, time, urllib.request, urllib.error
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
    if auth: h["Authorization"] = "Bearer gpu-token-1234"
    req = urllib.request.Request(base + path, data=json.dumps(body).encode() if body is not None else None, method=method, headers=h)
    try:
        r = urllib.request.urlopen(req, timeout=300); return r.status, r.read(), r.headers
    except urllib.error.HTTPError as e:
        return e.code, e.read(), e.headers
st, body, _ = call("GET", "/api/health")
h = json.loads(body)
check(h.get("gpu") and h["gpu"]["card"] == "a stand-in card" and h["gpu"]["queue_max"] == 2, "/api/health names the card: %s" % h.get("gpu"))
good = open(src + "/tests/exercises/02-v1-padding.solution.cu").read()
racing = re.sub(r"(\n\s*\}\n)\s*__syncthreads\(\);\n(\s*\}\n)", r"\1\2", good, count=1)
def join(name):
    st, body, hd = call("POST", "/api/join", {"name": name})
    check(st == 200, "%s joins: %s" % (name, st))
    return hd.get("Set-Cookie").split(";")[0]
def check_file(cookie, source):
    st, body, _ = call("POST", "/api/check", {"exercise": "02", "source": source}, cookie=cookie)
    return st, json.loads(body) if body else {}
def timed(cookie, gid, limit=60):
    t0 = time.time()
    while time.time() - t0 < limit:
        st, body, _ = call("GET", "/api/gpu?id=%d" % gid, cookie=cookie)
        j = json.loads(body)
        if st != 200 or j.get("state") not in ("queued", "running"): return st, j
        time.sleep(0.2)
    return 0, {}
ada, bo = join("Ada"), join("Bo")
st, a = check_file(ada, good + "\n// card: 1500\n")
g = a.get("gpu", {})
check(st == 200 and g.get("state") == "queued" and g.get("id"), "a solved Check is queued for the card: %s %s" % (st, g))
st, t = timed(ada, g["id"])
check(st == 200 and t.get("state") == "timed" and t.get("gbs") == 1500.0, "its timing: %s" % t)
check(abs(t.get("fraction", 0) - 1500.0 / 4000.0) < 1e-4 and t.get("best_read_gbs") == 4000.0 and t.get("cub_gbs") == 3000.0,
      "against the card's own best read and CUB, not the file's process's: %s %s %s" % (t.get("fraction"), t.get("best_read_gbs"), t.get("cub_gbs")))
check("1,500 GB/s, 38 % of this card's best read, CUB 3,000 GB/s" in t.get("line", {}).get("en", "") and "1,500 GB/s" in t.get("line", {}).get("zh", ""),
      "the speed line in English and Chinese: %s" % t.get("line"))
ns = [s["n"] for s in t.get("sizes", [])]
lo, hi = json.load(open(src + "/lessons/exercises/02-v1-padding.json"))["exercise"].get("gpu", {}).get("sizes", [1 << 24, 1 << 26])
check(len(ns) == 3 and ns[0] == lo and ns[-1] == hi and lo < ns[1] < hi and ns[1] % 256, "the exercise's sizes and one drawn between: %s" % ns)
st, r = check_file(ada, racing + "\n// card: 1500\n")
check(st == 200 and r.get("gpu", {}).get("state") == "not-timed", "a file that misses a goal is not timed: %s" % r.get("gpu"))
st, w = check_file(ada, good + "\n// card: wrong\n")
st, t = timed(ada, w["gpu"]["id"])
check(t.get("state") == "wrong" and "off by 1" in t.get("error", "") and "2^2" in t.get("error", ""), "a sum wrong on the card, the size and by how much: %s" % t.get("error"))
check("卡上的和是" in t.get("line", {}).get("zh", "") and "the card's sum" not in t.get("line", {}).get("zh", ""), "said in Chinese too: %s" % t.get("line", {}).get("zh"))
st, hg = check_file(ada, good + "\n// card: hang\n")
st, t = timed(ada, hg["gpu"]["id"])
check(t.get("state") == "failed" and "stopped after 15 s" in t.get("error", ""), "a timing that never ends is stopped: %s" % t.get("error"))
check("15 秒后被停止" in t.get("line", {}).get("zh", ""), "said in Chinese too: %s" % t.get("line", {}).get("zh"))
st, f = check_file(ada, good + "\n// card: forged\n")
st, t = timed(ada, f["gpu"]["id"])
check(t.get("state") == "failed" and "faster than this card reads" in t.get("error", ""), "a figure faster than the card reads is refused: %s" % t.get("error"))
st, b = check_file(bo, good + "\n// card: 2000\n")
st, t = timed(bo, b["gpu"]["id"])
check(t.get("state") == "timed" and t.get("gbs") == 2000.0, "the next timing is made after the stopped one: %s" % t.get("state"))
st, body, _ = call("GET", "/api/gpu?id=%d" % b["gpu"]["id"], cookie=ada)
check(st == 404, "another student's timing is not shown: %s" % st)
st, body, _ = call("GET", "/api/gpu/tries?exercise=02", cookie=ada)
tries = json.loads(body).get("tries", [])
check(st == 200 and [x["state"] for x in tries] == ["timed", "wrong", "failed", "failed"] and tries[0]["gbs"] == 1500.0,
      "Ada's tries, oldest first: %s" % [(x["state"], x["gbs"]) for x in tries])
st, body, _ = call("GET", "/api/class/leaderboard?exercise=02")
check(st == 401, "the leaderboard is the teacher's: %s" % st)
st, body, _ = call("GET", "/api/class/leaderboard?exercise=02", auth=True)
rows = json.loads(body).get("rows", [])
x02id = json.load(open(src + "/lessons/exercises/02-v1-padding.json"))["id"]
st2, body2, _ = call("GET", "/api/class/leaderboard?exercise=" + x02id, auth=True)
check(st2 == 200 and json.loads(body2).get("rows") == rows, "the leaderboard by the exercise's id, as /api/class names it: %s" % st2)
st2, body2, _ = call("GET", "/api/gpu/tries?exercise=" + x02id, cookie=ada)
check(st2 == 200 and len(json.loads(body2).get("tries", [])) == 4, "a student's tries by the exercise's id: %s" % st2)
check([(x["rank"], x["name"], x["gbs"]) for x in rows] == [(1, "Bo", 2000.0), (2, "Ada", 1500.0)], "each student's fastest, fastest first: %s" % rows)
st, body, _ = call("GET", "/api/class/grades.csv", auth=True)
grid = list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
ex02 = json.load(open(src + "/lessons/exercises/02-v1-padding.json"))["id"]
col = [i for i, x in enumerate(grid[0]) if "GB/s" in x and x.startswith(ex02 + " ")]
by = {r[0]: r for r in grid[1:]}
check(col and by.get("Ada", [""] * 99)[col[0]] == "1500.0" and by.get("Bo", [""] * 99)[col[0]] == "2000.0",
      "the grades carry the best GB/s: %s" % [(r[0], r[col[0]] if col else None) for r in grid[1:]])
# exercise 10's card goal (at least 75 % of the card's best read): judged from the timing, the try
# recorded again with it (the class's table, solved only then)
ten = open(src + "/tests/exercises/10-last-rung.solution.cu").read()
x10 = json.load(open(src + "/lessons/exercises/10-last-rung.json"))
total = len(x10["exercise"]["goals"]) + 1
for gbs, met in ((3600, True), (2000, False)):
    st, body, _ = call("POST", "/api/check", {"exercise": "10", "source": ten + "\n// card: %d\n" % gbs}, cookie=bo)
    c = json.loads(body)
    f = c.get("files", [{}])[0]
    check(st == 200 and f.get("met") == total - 1 and c.get("gpu", {}).get("state") == "queued",
          "exercise 10 at %d GB/s: every trace goal, the card's waiting: %s of %s, %s" % (gbs, f.get("met"), total, c.get("gpu")))
    st, t = timed(bo, c["gpu"]["id"])
    cg = t.get("card_goal", {})
    check(cg.get("met") is met and cg.get("met_goals") == (total if met else total - 1) and cg.get("goals") == total and cg.get("recorded"),
          "its card goal from %.0f %% of the best read: %s" % (100.0 * gbs / 4000, cg))
    st, body, _ = call("GET", "/api/class", auth=True)
    rows = [e for s_ in json.loads(body).get("students", []) if s_.get("name") == "Bo" for e in s_.get("exercises", []) if e.get("exercise") == x10["id"]]
    check(rows and rows[0].get("solved") is met and rows[0].get("goals") == total, "the class sees exercise 10 %s: %s" % ("solved" if met else "not solved", rows))
# past --gpu-queue 2: two files that never end (judged before, sent again by POST /api/gpu, which
# judges nothing) hold the queue; a third is refused with a Retry-After, and a Check answered from
# its kept judgement says busy
hangs = [good + "\n// card: hang\n// %d\n" % k for k in range(2)]
for hsrc in hangs:
    st, x = check_file(ada, hsrc)
    timed(ada, x["gpu"]["id"])
forged = good + "\n// card: forged\n"
sent = [call("POST", "/api/gpu", {"exercise": "02", "source": hsrc}, cookie=ada)[0] for hsrc in hangs]
st, body, hd = call("POST", "/api/gpu", {"exercise": "02", "source": forged}, cookie=ada)
check(sent == [202, 202] and st == 429 and int(hd.get("Retry-After", "0")) >= 1,
      "POST /api/gpu past the queue: %s then %s, Retry-After %s" % (sent, st, hd.get("Retry-After")))
st, x = check_file(ada, forged)
check(x.get("gpu", {}).get("state") == "busy" and x["gpu"].get("retry_after_s", 0) >= 1, "a Check past the queue says busy: %s" % x.get("gpu"))
st, body, hd = call("POST", "/api/gpu", {"exercise": "02", "source": racing}, cookie=ada)
check(st == 409, "POST /api/gpu of a file not solved: %s" % st)
# two timings at once (the queue's two, once the hanging ones are stopped): started beside each
# other, on the card one after the other. Exercise 10's files (a card goal: never a timing kept
# from before), judged once, then sent to the card together by POST /api/gpu, which judges nothing
for _ in range(600):
    if json.loads(call("GET", "/api/health")[1]).get("gpu", {}).get("queue") == 0: break
    time.sleep(0.1)
slow = [ten + "\n// card: slow\n// %d\n" % k for k in range(2)]
for src_ in slow:
    st, body, _ = call("POST", "/api/check", {"exercise": "10", "source": src_}, cookie=bo)
    timed(bo, json.loads(body)["gpu"]["id"])
open(tmp + "/stand-in.turns", "w").close()
ids = []
for src_ in slow:
    st, body, _ = call("POST", "/api/gpu", {"exercise": "10", "source": src_}, cookie=bo)
    ids.append((bo, json.loads(body).get("id") if st == 202 else None))
states = [timed(who, gid)[1].get("state") if gid else None for who, gid in ids]
spans = sorted(tuple(float(v) for v in line.split()[:3]) for line in open(tmp + "/stand-in.turns") if line.strip())
check(states == ["timed", "timed"] and len(spans) == 2, "two timings at once both timed: %s, %d turns" % (states, len(spans)))
if len(spans) == 2:
    (s0, t0, e0), (s1, t1, e1) = spans
    check(t1 >= e0, "one on the card at a time: the second's turn %.2f s after the first's end" % (t1 - e0))
    check(s1 < e0, "the second started beside the first: %.2f s before the first's turn ended" % (e0 - s1))
sys.exit(1 if fails else 0)
PY
rc=$?
[ "$rc" = 0 ] || { echo "--- serve's stderr"; tail -5 "$tmp/err"; exit 1; }
echo "serve_should_time_solved_checks_on_the_gpu: passed"
