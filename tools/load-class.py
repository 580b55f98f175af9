#!/usr/bin/env python3
"""Plays a class against a running `warpscope serve` and measures it.

S students (default 200) each send a kernel every 20 s, distinct by content (a comment naming the
student, the try and a random word, so the build cache misses): two in three right, one in three
wrong (a race: the barrier left out; out of bounds: the pairing's guard left out; a syntax error at a
known line), now and then a hostile one (host code calling system(), opening a socket, a loop that
never ends). One try in four is an exercise check (POST /api/check, exercise 02: its model solution
or the same file racing), the others POST /api/trace; half the time a student runs a file already
sent once more (cached). A try answered 429 is sent again after its Retry-After, as a student
presses Run again, until the student's next try is due; one answered 502 or 504 by a proxy whose
server went away is sent again after 2 s, as the page does, for a minute at most. Against a server on 127.0.0.1 each student
connects from an address of its own (127.1.X.Y), as a lab's machines do, so the server's
per-client limits count each student. The teacher's view polls GET /api/class every 2 s.

Prints p50/p95/p99 of /api/trace for new builds (right and wrong files) and for cached ones (the
hostile files apart: a loop that never ends takes the sandbox's 15 s), of /api/check and
/api/class; the build rate (new files built and answered per second, traced and checked), and each
server's own (--server, default --url: what it ran, by kind, and for how long each ran); the
count of each status code; what came back other than expected (a right file not 200, a syntax error
not 422 at its line, anything but 200, 422 and 429); and checks that nothing was lost from the class record: every check the server
accepted (200) is counted in /api/class under its student and exercise (the server's record starts
empty), the last one's judgement shown, its time no earlier than it was sent.
Where the server is on this machine, a hostile file's marker must not appear in /tmp.

Each student joins the class first (POST /api/join with their name: the session the server gives,
a cookie, goes with every try after; the server's limits count students, not addresses).

--lab plays an exercise lab instead: most tries (--checks, default 60 %) are Checks across every
exercise of lessons/exercises/ (each the exercise's model solution from tests/exercises/, tagged so
that it is judged afresh; one in three of them with a syntax error), the rest Runs as above. The
figures are then given per kind: /api/check by exercise and in all, new builds, cached traces, each
with p50/p95/p99, its 429s and the tries lost.

usage: load-class.py --token T [--url URL] [--students S] [--duration SECONDS] [--period SECONDS]
                     [--poll SECONDS] [--exercise NAME] [--seed N] [--one-address] [--server URL]... [--json OUT]
                     [--lab [--checks FRACTION] [--source-dir DIR]]
Exit 0 when nothing unexpected came back and nothing was lost, 1 otherwise, 2 on bad flags.
Python 3's standard library only.
"""
import argparse
import http.client
import json
import os
import random
import sys
import threading
import time
import urllib.parse

ENTRY = "reduce<<<(n + 255) / 256, 256>>>(in, out, n), reduce<<<1, 256>>>(out, out, (n + 255) / 256)"
N = 4096

# the right file: exercise 02's model solution (v1's pairs, each 32 words padded by one)
RIGHT = """// {tag}
#define BLOCK 256
#define PAD(w) ((w) + (w) / 32)

__global__ void reduce(const float *g_idata, float *g_odata, unsigned int n)
{{
    __shared__ float sdata[BLOCK + BLOCK / 32];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[PAD(tid)] = (i < n) ? g_idata[i] : 0.0f;
    __syncthreads();

    for (unsigned int s = 1; s < blockDim.x; s *= 2) {{
        unsigned int index = 2 * s * tid;
        if (index < blockDim.x) {{
            sdata[PAD(index)] += sdata[PAD(index + s)];
        }}
        {barrier}
    }}

    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}}
{host}"""
BARRIER = "__syncthreads();"

# out of bounds: every thread adds its pair, the guard left out, so index + s runs past the array
OUT_OF_BOUNDS = RIGHT.replace("if (index < blockDim.x) {{", "{{")

# a syntax error: the semicolon after the load (line 10) left out; the compiler names line 10 or
# line 11 (the barrier after it)
SYNTAX = RIGHT.replace("0.0f;\n", "0.0f\n", 1)
SYNTAX_LINES = (10, 11)

# hostile host code: the entry calls run(), which does what no learner's file may do
HOST_RUN = "run(in, out, n)"
HOSTILE = {
    "system": """
extern "C" int system(const char *);
void run(const float *in, float *out, unsigned int n)
{{
    system("touch {marker}");
    reduce<<<(n + 255) / 256, 256>>>(in, out, n);
    reduce<<<1, 256>>>(out, out, (n + 255) / 256);
}}
""",
    "socket": """
extern "C" int socket(int, int, int);
extern "C" int connect(int, const void *, unsigned int);
void run(const float *in, float *out, unsigned int n)
{{
    unsigned char addr[16] = {{2, 0, 0, 80, 127, 0, 0, 1}};
    int s = socket(2, 1, 0);
    if (s >= 0 && connect(s, addr, sizeof addr) == 0) out[0] = 1e9f;
    reduce<<<(n + 255) / 256, 256>>>(in, out, n);
    reduce<<<1, 256>>>(out, out, (n + 255) / 256);
}}
""",
    "endless": """
void run(const float *in, float *out, unsigned int n)
{{
    volatile unsigned int k = 0;
    for (;;) k++;
}}
""",
}

# what each kind of try may be answered: anything else is unexpected
EXPECTED = {
    "right": {200},
    "racing": {200, 422},
    "out-of-bounds": {200, 422},
    "syntax": {422},
    "system": {200, 422},
    "socket": {200, 422},
    "endless": {200, 422},
}
OVERLOAD = 429
PROXY_LOST = (502, 504)  # a proxy's answer when its server went away: the page sends the Run or Check again


class OneLineParser(argparse.ArgumentParser):
    """Bad flags: one line and exit 2."""

    def error(self, message):
        sys.stderr.write("load-class.py: %s (see --help)\n" % message)
        sys.exit(2)


def positive(kind):
    def parse(text):
        try:
            v = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError("'%s' is not a number" % text)
        if v <= 0:
            raise argparse.ArgumentTypeError("'%s' must be above 0" % text)
        return v
    return parse


def parse_flags(argv):
    p = OneLineParser(description="Plays a class against a running warpscope serve.")
    p.add_argument("--url", default="http://127.0.0.1:8080", help="the server (default http://127.0.0.1:8080)")
    p.add_argument("--token", required=True, help="the teacher's token (warpscope serve --token, or the one it printed)")
    p.add_argument("--students", type=positive(int), default=200, help="students in the class (default 200)")
    p.add_argument("--duration", type=positive(float), default=120.0, help="seconds the class writes (default 120)")
    p.add_argument("--period", type=positive(float), default=20.0, help="seconds between a student's tries (default 20)")
    p.add_argument("--poll", type=positive(float), default=2.0, help="seconds between the teacher's looks (default 2)")
    p.add_argument("--exercise", default="02-v1-padding", help="the exercise checked (default 02-v1-padding)")
    p.add_argument("--timeout", type=positive(float), default=120.0, help="seconds a request may take (default 120)")
    p.add_argument("--seed", type=int, default=1, help="the class's random choices (default 1)")
    p.add_argument("--one-address", action="store_true",
                   help="every student from this machine's one address (a lab behind NAT); by default, against a server on "
                        "127.0.0.1, each student connects from an address of its own (127.1.X.Y), as a lab's machines do")
    p.add_argument("--server", action="append", default=[], metavar="URL",
                   help="a server whose own figures (GET /api/health's \"ran\") are printed at the end; repeat it for each "
                        "server behind a proxy (default: --url)")
    p.add_argument("--json", metavar="OUT", help="also write the figures to OUT as JSON")
    p.add_argument("--lab", action="store_true", help="an exercise lab: most tries Checks across every exercise, the rest Runs")
    p.add_argument("--gpu", action="store_true",
                   help="with --lab, a server with a GPU: each solved Check's timing on the card is awaited (GET /api/gpu, as the page polls it) "
                        "beside the student's next tries, and its time from the Check's answer to the card's verdict counted")
    p.add_argument("--checks", type=positive(float), default=0.6, help="with --lab, the fraction of tries that are Checks (default 0.6)")
    p.add_argument("--source-dir", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."),
                   help="with --lab, warpscope's source (lessons/exercises/, tests/exercises/; default this script's ..)")
    a = p.parse_args(argv)
    if a.checks > 1:
        p.error("--checks: a fraction, 0 to 1")
    for url in a.server:
        s = urllib.parse.urlsplit(url)
        if s.scheme not in ("http", "https") or not s.hostname:
            p.error("--server: '%s' is not an http:// or https:// address" % url)
    u = urllib.parse.urlsplit(a.url)
    if u.scheme not in ("http", "https") or not u.hostname:
        p.error("--url: '%s' is not an http:// or https:// address" % a.url)
    try:
        u.port
    except ValueError:
        p.error("--url: '%s' has a port that is not a number" % a.url)
    if not a.token.strip():
        p.error("--token: empty")
    return a


class Client:
    """One request at a time on its own connection: status, body, seconds taken."""

    def __init__(self, url, timeout, source=None):
        u = urllib.parse.urlsplit(url)
        self.https = u.scheme == "https"
        self.host, self.port = u.hostname, u.port or (443 if self.https else 80)
        self.base = u.path.rstrip("/")
        self.timeout = timeout
        self.source = (source, 0) if source else None
        self.session = None     # the ws_session cookie the server gave at /api/join

    def request(self, method, path, body=None, headers=None):
        h = dict(headers or {})
        if self.session:
            h["Cookie"] = "ws_session=" + self.session
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            h["Content-Type"] = "application/json"
        conn_class = http.client.HTTPSConnection if self.https else http.client.HTTPConnection
        t0 = time.monotonic()
        try:
            c = conn_class(self.host, self.port, timeout=self.timeout, source_address=self.source)
            c.request(method, self.base + path, body=data, headers=h)
            r = c.getresponse()
            raw = r.read()
            status, retry = r.status, r.getheader("Retry-After")
            cookie = r.getheader("Set-Cookie") or ""
            if cookie.startswith("ws_session="):
                self.session = cookie.split(";")[0].split("=", 1)[1]
            c.close()
        except (OSError, http.client.HTTPException) as e:
            return "failed: " + type(e).__name__, None, time.monotonic() - t0, None
        return status, raw, time.monotonic() - t0, retry


def percentile(values, p):
    """Nearest rank."""
    if not values:
        return None
    s = sorted(values)
    k = max(0, min(len(s) - 1, int(-(-p * len(s) // 100)) - 1))
    return s[k]


class Record:
    def __init__(self):
        self.lock = threading.Lock()
        self.times = {"trace-new": [], "trace-cached": [], "trace-hostile": [], "check": [], "class": []}
        self.overloads = {}             # kind -> 429s answered
        self.check_times = {}           # exercise id -> seconds of its checks (--lab)
        self.codes = {}                 # endpoint -> status -> count
        self.unexpected = []            # lines
        self.built = {"trace": 0, "check": 0}  # new files built and answered (200 or 422; a check 200)
        self.accepted = {}              # (student, exercise id) -> (checks accepted, the last sent at (epoch s), solved)
        self.sent = {}                  # body's key -> answered status (for the cached runs)
        self.class_polls_ok = 0
        self.given_up = 0               # tries still answered 429 when the student's next came
        self.resent = {}                # kind -> sent again after a proxy's 502 or 504
        self.gpu_times = []             # --gpu: seconds from a Check's answer to its timing's verdict
        self.gpu_states = {}            # --gpu: the Checks' "gpu" state, then each timing's verdict
        self.gpu_pending = []           # --gpu: the pollers' threads

    def count(self, endpoint, status):
        with self.lock:
            d = self.codes.setdefault(endpoint, {})
            d[str(status)] = d.get(str(status), 0) + 1


def tag(rng, student, k):
    return "student %03d, try %d, %08x" % (student, k, rng.getrandbits(32))


def make_try(rng, student, k, marker_dir):
    """(kind, source, entry): the try's kind, by the class's proportions."""
    t = tag(rng, student, k)
    x = rng.random()
    if x < 0.04:
        kind = rng.choice(sorted(HOSTILE))
        marker = os.path.join(marker_dir, "warpscope-load-%03d-%d-%08x" % (student, k, rng.getrandbits(32)))
        host = HOSTILE[kind].format(marker=marker)
        return kind, RIGHT.format(tag=t, barrier=BARRIER, host=host), HOST_RUN, marker
    if x < 0.04 + 0.32:
        kind = rng.choice(["racing", "out-of-bounds", "syntax"])
        src = {"racing": RIGHT.format(tag=t, barrier="", host=""),
               "out-of-bounds": OUT_OF_BOUNDS.format(tag=t, barrier=BARRIER, host=""),
               "syntax": SYNTAX.format(tag=t, barrier=BARRIER, host="")}[kind]
        return kind, src, ENTRY, None
    return "right", RIGHT.format(tag=t, barrier=BARRIER, host=""), ENTRY, None


def judge_trace(rec, kind, status, raw, what):
    if status == OVERLOAD:
        return
    if status not in EXPECTED[kind]:
        with rec.lock:
            rec.unexpected.append("%s: a %s file was answered %s%s" % (what, kind, status, excerpt(raw)))
        return
    if kind == "syntax":
        line = None
        try:
            line = json.loads(raw)["error"]["line"]
        except (ValueError, KeyError, TypeError):
            pass
        if line not in SYNTAX_LINES:
            with rec.lock:
                rec.unexpected.append("%s: a syntax error on line 10 was answered at line %s%s" % (what, line, excerpt(raw)))


def excerpt(raw):
    if not raw:
        return ""
    t = raw[:160].decode("utf-8", "replace").replace("\n", " ")
    return ": " + t


def send(rec, client, path, body, until, kind=None):
    """POST body; on 429, again after Retry-After (as a student presses Run again), while that is
    before until; on a proxy's 502 or 504 (its server went away), again after 2 s, as the page does,
    for a minute at most. The last answer: status, body, seconds that request took (from the first send
    when it was sent again for a proxy)."""
    first, resent = time.monotonic(), 0
    while True:
        status, raw, dt, retry = client.request("POST", path, body)
        rec.count(path, status)
        if status in PROXY_LOST and resent + 2 <= 60:
            with rec.lock:
                rec.resent[kind or path] = rec.resent.get(kind or path, 0) + 1
            resent += 2
            time.sleep(2)
            continue
        if resent:
            dt = time.monotonic() - first
        if status != OVERLOAD:
            return status, raw, dt
        with rec.lock:
            rec.overloads[kind or path] = rec.overloads.get(kind or path, 0) + 1
        try:
            wait = max(0.5, float(retry))
        except (TypeError, ValueError):
            wait = 1.0
        if time.monotonic() + wait >= until:
            with rec.lock:
                rec.given_up += 1
            return status, raw, dt
        time.sleep(wait)


def load_lab(source_dir):
    """[(exercise file's name, model solution's text)] for every exercise with a model solution"""
    found = []
    ex_dir = os.path.join(source_dir, "lessons", "exercises")
    for f in sorted(os.listdir(ex_dir)):
        if f.endswith(".json"):
            sol = os.path.join(source_dir, "tests", "exercises", f[:-5] + ".solution.cu")
            if os.path.exists(sol):
                with open(sol) as fh:
                    found.append((f[:-5], fh.read()))
    return found


def lab_check(args, rec, client, name, number, k, rng, next_at, stop_at):
    """One Check of the lab: an exercise's model solution, tagged; one in three with a syntax error."""
    ex, model = rng.choice(args.lab_exercises)
    broken = rng.random() < 1.0 / 3.0
    src = "// %s\n" % tag(rng, number, k) + model + ("\nthis line is not C\n" if broken else "")
    sent_at = time.time()
    status, raw, dt = send(rec, client, "/api/check", {"exercise": ex, "source": src}, min(next_at, stop_at), "check")
    if status != 200:
        if status != OVERLOAD:
            with rec.lock:
                rec.unexpected.append("/api/check: %s's %s of %s was answered %s%s" % (name, "broken file" if broken else "model solution", ex, status, excerpt(raw)))
        return
    answer = json.loads(raw)
    met = all_goals_met(answer)
    exid = answer.get("exercise", ex)
    if args.gpu:
        g = answer.get("gpu") or {}
        with rec.lock:
            rec.gpu_states["check:" + str(g.get("state"))] = rec.gpu_states.get("check:" + str(g.get("state")), 0) + 1
        if g.get("state") == "queued" and g.get("id"):
            th = threading.Thread(target=gpu_wait, args=(rec, client, g["id"], time.monotonic()), daemon=True)
            th.start()
            with rec.lock:
                rec.gpu_pending.append(th)
    with rec.lock:
        rec.times["check"].append(dt)
        rec.check_times.setdefault(ex, []).append(dt)
        rec.built["check"] += 1
        count = rec.accepted.get((name, exid), (0, 0, None))[0]
        # the class's table shows a card goal's exercise solved only once the card judged it: not compared
        rec.accepted[(name, exid)] = (count + 1, sent_at, None if has_card_goal(answer) else met)
        if met is not None and met == broken:
            rec.unexpected.append("/api/check: %s's %s of %s judged %s" % (name, "broken file" if broken else "model solution", ex, "solved" if met else "not solved"))


def gpu_wait(rec, client, gid, since):
    """A solved Check's timing on the card, asked every half second as the page asks it, for up to two minutes."""
    poll = Client.__new__(Client)
    poll.__dict__.update(client.__dict__)  # the student's session, a connection of its own
    state = "unanswered"
    while time.monotonic() - since < 120:
        status, raw, _, _ = poll.request("GET", "/api/gpu?id=%d" % gid)
        rec.count("/api/gpu", status)
        if status == 200:
            state = json.loads(raw).get("state", "?")
            if state not in ("queued", "running"):
                break
        time.sleep(0.5)
    with rec.lock:
        rec.gpu_states[state] = rec.gpu_states.get(state, 0) + 1
        if state not in ("queued", "running", "unanswered"):
            rec.gpu_times.append(time.monotonic() - since)
        else:
            rec.unexpected.append("/api/gpu: timing %d of a solved Check had no verdict after 120 s (%s)" % (gid, state))


def student(args, rec, client, number, stop_at, rng, marker_dir, markers):
    name = "student-%03d" % number
    status, raw, _, _ = client.request("POST", "/api/join", {"name": name})
    rec.count("/api/join", status)
    if status != 200:
        with rec.lock:
            rec.unexpected.append("/api/join: %s was answered %s%s" % (name, status, excerpt(raw)))
        return
    sent_before = []            # bodies this student sent and had answered
    k = 0
    next_at = time.monotonic() + rng.uniform(0, args.period)
    while True:
        now = time.monotonic()
        if next_at >= stop_at:
            return
        if next_at > now:
            time.sleep(next_at - now)
        next_at += args.period
        k += 1
        if args.lab and rng.random() < args.checks:
            lab_check(args, rec, client, name, number, k, rng, next_at, stop_at)
            continue
        kind, src, entry, marker = make_try(rng, number, k, marker_dir)
        if marker:
            with rec.lock:
                markers.append(marker)
        if not args.lab and rng.random() < 0.25 and kind in ("right", "racing"):
            # an exercise check: the model solution or the same file racing
            body = {"exercise": args.exercise, "source": src}
            sent_at = time.time()
            status, raw, dt = send(rec, client, "/api/check", body, min(next_at, stop_at), "check")
            if status == 200:
                try:
                    met = all_goals_met(json.loads(raw))
                except ValueError:
                    met = None
                ex = args.exercise
                try:
                    ex = json.loads(raw)["exercise"]
                except (ValueError, KeyError, TypeError):
                    pass
                with rec.lock:
                    rec.times["check"].append(dt)
                    rec.built["check"] += 1
                    count = rec.accepted.get((name, ex), (0, 0, None))[0]
                    rec.accepted[(name, ex)] = (count + 1, sent_at, met)
                    if met is not None and met != (kind == "right"):
                        rec.unexpected.append("/api/check: %s's %s file judged %s" % (name, kind, "all goals met" if met else "not all met"))
            elif status != OVERLOAD:
                with rec.lock:
                    rec.unexpected.append("/api/check: %s's %s file was answered %s%s" % (name, kind, status, excerpt(raw)))
        else:
            body = {"source": src, "entry": entry, "defines": [], "n": N, "block": 256, "schedule": "lockstep"}
            status, raw, dt = send(rec, client, "/api/trace", body, min(next_at, stop_at), "trace-hostile" if kind in HOSTILE else "trace-new")
            if status in (200, 422):
                with rec.lock:
                    rec.times["trace-hostile" if kind in HOSTILE else "trace-new"].append(dt)
                    rec.built["trace"] += 1
                sent_before.append((kind, body))
            judge_trace(rec, kind, status, raw, "/api/trace (new)")
        # half the time, the student runs a file already answered once more: the cache's answer
        if sent_before and rng.random() < 0.5 and time.monotonic() + 4 < min(next_at, stop_at):
            time.sleep(rng.uniform(0.5, 3.0))
            kind, body = rng.choice(sent_before)
            status, raw, dt = send(rec, client, "/api/trace", body, min(next_at, stop_at), "trace-hostile" if kind in HOSTILE else "trace-cached")
            if status in (200, 422):
                with rec.lock:
                    rec.times["trace-hostile" if kind in HOSTILE else "trace-cached"].append(dt)
            judge_trace(rec, kind, status, raw, "/api/trace (cached)")


def all_goals_met(report):
    """The check's answer ({"exercise", "files": [{"solved", "goals", ...}], "student", "recorded"}): solved?
    An exercise with a card goal (exercise 10) is solved only once the card has judged it, later:
    here its goals on the trace are what the Check says."""
    try:
        f = report["files"][0]
        if any(g.get("card") for g in f.get("goals", [])):
            return all(g.get("met") for g in f["goals"] if not g.get("card"))
        return bool(f["solved"])
    except (KeyError, IndexError, TypeError, AttributeError):
        return None


def has_card_goal(report):
    try:
        return any(g.get("card") for g in report["files"][0].get("goals", []))
    except (KeyError, IndexError, TypeError, AttributeError):
        return False


def teacher(args, rec, client, stop, last):
    headers = {"Authorization": "Bearer " + args.token}
    while not stop.is_set():
        t0 = time.monotonic()
        status, raw, dt, _ = client.request("GET", "/api/class", headers=headers)
        rec.count("/api/class", status)
        if status == 200:
            with rec.lock:
                rec.times["class"].append(dt)
                rec.class_polls_ok += 1
            last[0] = raw
        elif status != OVERLOAD:
            with rec.lock:
                rec.unexpected.append("/api/class: answered %s%s" % (status, excerpt(raw)))
        stop.wait(max(0.0, args.poll - (time.monotonic() - t0)))


def class_entries(view):
    """(student, exercise id) -> (tries, solved, last try in epoch seconds), from /api/class:
    {"students": [{"name", "exercises": [{"exercise", "solved", "tries", "last_try_ms", ...}]}]}"""
    found = {}
    for s in view.get("students", []):
        for e in s.get("exercises", []):
            found[(s.get("name"), e.get("exercise"))] = (e.get("tries"), e.get("solved"), e.get("last_try_ms", 0) / 1000.0)
    return found


def lost_records(rec, view):
    """Every accepted check is in the record: as many tries as were accepted (the class's record
    starts empty), the last one's judgement, no earlier than it was sent."""
    entries = class_entries(view)
    lost = []
    for (name, ex), (count, sent_at, solved) in sorted(rec.accepted.items()):
        got = entries.get((name, ex))
        if got is None:
            lost.append("%s's %d checks of %s are not in /api/class" % (name, count, ex))
            continue
        tries, shown, at = got
        if not isinstance(tries, int) or tries < count:
            lost.append("%s: %d checks of %s accepted, /api/class counts %s" % (name, count, ex, tries))
        if solved is not None and shown != solved:
            lost.append("%s's last check of %s was %s, /api/class shows %s" % (name, ex, "solved" if solved else "not solved", "solved" if shown else "not solved"))
        if at + 1.0 < sent_at:
            lost.append("%s's last try of %s is at %.0f in /api/class, before the check sent at %.0f" % (name, ex, at, sent_at))
    return lost


def server_figures(url, timeout):
    """What one server says it ran (GET /api/health's "ran"), or why there is nothing."""
    status, raw, _, _ = Client(url, timeout).request("GET", "/api/health")
    if status != 200:
        return "/api/health answered %s" % status
    try:
        return json.loads(raw)["ran"]
    except (ValueError, KeyError, TypeError):
        return "/api/health says nothing of what it ran (an older warpscope?)"


def fmt_ms(v):
    return "-" if v is None else "%.0f" % (v * 1000.0)


def main(argv):
    args = parse_flags(argv)
    args.lab_exercises = load_lab(args.source_dir) if args.lab else []
    if args.lab and not args.lab_exercises:
        sys.stderr.write("load-class.py: --lab: no exercise with a model solution under %s (lessons/exercises/, tests/exercises/)\n" % args.source_dir)
        return 2
    client = Client(args.url, args.timeout)
    status, raw, _, _ = client.request("GET", "/api/health")
    if status != 200:
        sys.stderr.write("load-class.py: %s/api/health answered %s: is warpscope serve running there?\n" % (args.url, status))
        return 1
    health = raw.decode("utf-8", "replace").strip()
    local = urllib.parse.urlsplit(args.url).hostname in ("127.0.0.1", "localhost", "::1")
    marker_dir = "/tmp"
    host = urllib.parse.urlsplit(args.url).hostname
    spread = not args.one_address and (host == "localhost" or host.startswith("127."))
    rec = Record()
    markers = []
    master = random.Random(args.seed)
    start = time.monotonic()
    stop_at = start + args.duration
    stop = threading.Event()
    last_view = [None]
    t = threading.Thread(target=teacher, args=(args, rec, client, stop, last_view), daemon=True)
    t.start()
    threads = []
    for i in range(args.students):
        mine = Client(args.url, args.timeout, "127.1.%d.%d" % (i // 250, i % 250 + 2) if spread else None)  # a session each
        th = threading.Thread(target=student, args=(args, rec, mine, i + 1, stop_at, random.Random(master.getrandbits(64)), marker_dir, markers), daemon=True)
        th.start()
        threads.append(th)
    for th in threads:
        th.join()
    for th in list(rec.gpu_pending):  # the card's last verdicts
        th.join()
    stop.set()
    t.join()
    elapsed = time.monotonic() - start
    # the teacher's last look, after every answer came back
    status, raw, _, _ = client.request("GET", "/api/class", headers={"Authorization": "Bearer " + args.token})
    lost = []
    if status != 200:
        lost.append("the last /api/class answered %s" % status)
    else:
        try:
            lost = lost_records(rec, json.loads(raw))
        except ValueError:
            lost.append("the last /api/class is not JSON")
    escaped = [m for m in markers if local and os.path.exists(m)] if local else []

    figures = {"url": args.url, "students": args.students, "duration_s": round(elapsed, 1), "period_s": args.period,
               "cpus_here": os.cpu_count(), "health": health, "codes": rec.codes, "latency_ms": {},
               "builds": rec.built, "build_rate_per_s": round(sum(rec.built.values()) / elapsed, 3),
               "checks_accepted": sum(v[0] for v in rec.accepted.values()), "given_up": rec.given_up, "addresses": args.students if spread else 1, "lost": lost, "unexpected": rec.unexpected,
               "hostile_markers_checked": len(markers) if local else 0, "hostile_escaped": escaped}
    print("warpscope class: %d students, a try every %.0f s each, %.0f s against %s" % (args.students, args.period, elapsed, args.url))
    print("server: %s" % health)
    print("students connect from %s" % ("an address each (127.1.X.Y)" if spread else "one address"))
    print("%-22s %6s %8s %8s %8s %8s" % ("latency (ms)", "count", "p50", "p95", "p99", "max"))
    names = {"trace-new": "/api/trace new build", "trace-cached": "/api/trace cached", "trace-hostile": "/api/trace hostile",
             "check": "/api/check", "class": "/api/class"}
    for key, label in names.items():
        v = rec.times[key]
        row = {"count": len(v), "p50": percentile(v, 50), "p95": percentile(v, 95), "p99": percentile(v, 99), "max": max(v) if v else None}
        figures["latency_ms"][key] = {k: (round(x * 1000.0, 1) if isinstance(x, float) else x) for k, x in row.items()}
        print("%-22s %6d %8s %8s %8s %8s  429s %d" % (label, row["count"], fmt_ms(row["p50"]), fmt_ms(row["p95"]), fmt_ms(row["p99"]), fmt_ms(row["max"]),
                                                    rec.overloads.get(key, 0)))
        figures["latency_ms"][key]["429s"] = rec.overloads.get(key, 0)
    if args.lab:
        figures["checks_by_exercise_ms"] = {}
        for ex, v in sorted(rec.check_times.items()):
            figures["checks_by_exercise_ms"][ex] = {"count": len(v), "p50": round(percentile(v, 50) * 1000.0, 1), "p95": round(percentile(v, 95) * 1000.0, 1),
                                                    "p99": round(percentile(v, 99) * 1000.0, 1)}
            print("  %-20s %6d %8s %8s %8s" % ("check " + ex[:14], len(v), fmt_ms(percentile(v, 50)), fmt_ms(percentile(v, 95)), fmt_ms(percentile(v, 99))))
    if args.gpu:
        v = rec.gpu_times
        figures["gpu"] = {"states": rec.gpu_states, "count": len(v), "p50_ms": round((percentile(v, 50) or 0) * 1000.0, 1),
                          "p95_ms": round((percentile(v, 95) or 0) * 1000.0, 1), "p99_ms": round((percentile(v, 99) or 0) * 1000.0, 1),
                          "max_ms": round((max(v) if v else 0) * 1000.0, 1)}
        print("%-22s %6d %8s %8s %8s %8s" % ("card's verdict", len(v), fmt_ms(percentile(v, 50)), fmt_ms(percentile(v, 95)), fmt_ms(percentile(v, 99)),
                                           fmt_ms(max(v) if v else None)))
        print("the card: %s" % ", ".join("%s x%d" % kv for kv in sorted(rec.gpu_states.items())))
    built = sum(rec.built.values())
    print("build rate: %d new files built and answered in %.0f s (%d traced, %d checked), %.2f a second" %
          (built, elapsed, rec.built["trace"], rec.built["check"], built / elapsed))
    for endpoint in sorted(rec.codes):
        print("%s: %s" % (endpoint, ", ".join("%s x%d" % (c, n) for c, n in sorted(rec.codes[endpoint].items()))))
    print("class record: %d checks accepted (%d students' exercises), %d lost" % (sum(v[0] for v in rec.accepted.values()), len(rec.accepted), len(lost)))
    for line in lost[:20]:
        print("  lost: " + line)
    if local:
        print("hostile files: %d markers looked for in %s, %d made" % (len(markers), marker_dir, len(escaped)))
    for line in escaped:
        print("  escaped: " + line)
    figures["servers"] = {}
    for url in args.server or [args.url]:
        ran = server_figures(url, args.timeout)
        figures["servers"][url] = ran
        if not isinstance(ran, dict):
            print("server %s: %s" % (url, ran))
            continue
        up = ran.get("up_s") or 0
        parts = []
        for kind in ("built", "checked", "cached"):
            k = ran.get(kind, {})
            parts.append("%d %s (mean %s ms, longest %s ms)" % (k.get("count", 0), kind, k.get("mean_ms"), k.get("max_ms")))
        rate = (ran.get("built", {}).get("count", 0) + ran.get("checked", {}).get("count", 0)) / up if up else 0
        print("server %s, up %.0f s: %s; %.2f new files a second" % (url, up, ", ".join(parts), rate))
    print("tries answered 429 until the student's next try: %d" % rec.given_up)
    figures["resent_after_proxy"] = rec.resent
    print("sent again after a proxy's 502 or 504 (its server gone): %s" % (", ".join("%s x%d" % kv for kv in sorted(rec.resent.items())) or "none"))
    print("unexpected answers: %d" % len(rec.unexpected))
    for line in rec.unexpected[:20]:
        print("  " + line)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(figures, f, indent=1)
    return 0 if not lost and not rec.unexpected and not escaped else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
