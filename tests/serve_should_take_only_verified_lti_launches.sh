#!/bin/sh
# warpscope serve as an LTI 1.3 tool takes only launches a platform signed: a platform made here with
# PyJWT and cryptography (Debian's python3-jwt, python3-cryptography) on loopback signs id_tokens with
# its RSA key, serves its keyset, a token endpoint (which checks the tool's signed client assertion
# against the tool's own /lti/jwks) and an AGS scores endpoint. A student's good launch makes a
# session in the class, and a Check of exercise 02's model solution posts its goals met of total to
# the platform (refused once by it, then sent again); a key turned by the platform is fetched again. Refused, each with its page and no
# session made (the class record's students counted): a bad signature, a key the keyset does not hold,
# a nonce used twice, another audience, an expired token, another deployment, another issuer, a
# state cookie missing, alg none and HS256 signed with the public key; a student's token carrying an
# instructor role anywhere but the signed roles claim (a custom claim, the form, the address) is a
# student. An instructor's launch signs the teacher in; Deep Linking returns a response the tool
# signed with an ltiResourceLink and its lineItem per exercise chosen. A launched student is in the
# grades' CSV; the teacher's Remove takes them from the view and frees the name: a typed join takes it
# and the platform user's next launch is named afresh (never taking the name back). Skips (77) where the build has
# no serve, or python3-jwt is missing.
ws="$1"
src="$2"
command -v python3 >/dev/null 2>&1 || { echo "FAIL: python3 is needed for this test"; exit 1; }
py=python3 # Debian's, where another python3 comes first in PATH without its packages
python3 -c "import jwt, cryptography" 2>/dev/null || py=/usr/bin/python3
"$py" -c "import jwt, cryptography" 2>/dev/null || { echo "SKIP: python3-jwt and python3-cryptography are needed (tools/setup-debian.sh)"; exit 77; }
tmp=$(mktemp -d)
chmod 755 "$tmp"
pidfile="$tmp/serve.pid"
trap 'test -s "$pidfile" && kill "$(cat "$pidfile")" 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
if "$ws" serve --state "$tmp/probe" --bind not-an-address 2>&1 | grep -q "built without the class server"; then
    echo "SKIP: this build has no class server (libmicrohttpd-dev, libsqlite3-dev)"
    exit 77
fi
# the one file run is the project's own model solution: without a sandbox here, serve is let start
"$ws" --version | grep -q "^sandbox for a learner's file: bubblewrap" || export WARPSCOPE_UNSAFE=1
export HOME="$tmp/home" XDG_CACHE_HOME="$tmp/cache"
mkdir -p "$HOME"
"$py" - "$ws" "$src" "$tmp" "$pidfile" <<'EOF'
import base64, http.server, json, re, socket, sqlite3, subprocess, sys, threading, time, urllib.parse, urllib.request, urllib.error, uuid
import jwt
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives import serialization
ws, src, tmp, pidfile = sys.argv[1:5]
fails = []
def check(cond, what):
    if not cond:
        print("FAIL:", what)
        fails.append(what)
    return cond

def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p

# ---- the platform ----
ISS, CLIENT, DEPLOY = "https://platform.example", "warpscope-client-7", "dep-1"
keys = {k: rsa.generate_private_key(public_exponent=65537, key_size=2048) for k in ("k1", "k2", "stranger")}
published = ["k1"]  # the keyset's kids
def jwk(kid):
    d = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(keys[kid].public_key()))
    d.update(kid=kid, alg="RS256", use="sig")
    return d
got = {"jwks": 0, "scores": [], "tokens": 0, "token_errors": []}
pport, tport = free_port(), free_port()
P = "http://127.0.0.1:%d" % pport
T = "http://127.0.0.1:%d" % tport
LINEITEM = P + "/lineitems/7/lineitem?type_id=1"
ACCESS = "access-" + uuid.uuid4().hex

class Platform(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def answer(self, code, body, ctype="application/json"):
        b = body.encode() if isinstance(body, str) else body
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(b)))
        self.end_headers()
        self.wfile.write(b)
    def do_GET(self):
        if self.path == "/jwks":
            got["jwks"] += 1
            return self.answer(200, json.dumps({"keys": [jwk(k) for k in published]}))
        self.answer(404, "{}")
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()
        if self.path == "/token":
            f = urllib.parse.parse_qs(body)
            try:  # the tool's assertion, verified against the tool's own keyset
                tool_keys = json.loads(urllib.request.urlopen(T + "/lti/jwks", timeout=10).read())["keys"]
                a = f["client_assertion"][0]
                kid = jwt.get_unverified_header(a)["kid"]
                pub = jwt.algorithms.RSAAlgorithm.from_jwk(json.dumps([k for k in tool_keys if k["kid"] == kid][0]))
                c = jwt.decode(a, pub, algorithms=["RS256"], audience=P + "/token")
                assert c["iss"] == CLIENT and c["sub"] == CLIENT, c
                assert f["grant_type"] == ["client_credentials"], f
                assert "https://purl.imsglobal.org/spec/lti-ags/scope/score" in f["scope"][0].split(), f
            except Exception as e:
                got["token_errors"].append(repr(e))
                return self.answer(400, json.dumps({"error": "invalid_client"}))
            got["tokens"] += 1
            return self.answer(200, json.dumps({"access_token": ACCESS, "token_type": "Bearer", "expires_in": 3600}))
        if self.path == "/lineitems/7/lineitem/scores?type_id=1":
            if self.headers.get("Authorization") != "Bearer " + ACCESS:
                return self.answer(401, "{}")
            got["score_posts"] = got.get("score_posts", 0) + 1
            if got["score_posts"] == 1:  # the platform down for the first: the score is sent again
                return self.answer(503, "{}")
            got["scores"].append((self.headers.get("Content-Type"), json.loads(body)))
            return self.answer(200, "{}")
        self.answer(404, "{}")

plat = http.server.ThreadingHTTPServer(("127.0.0.1", pport), Platform)
threading.Thread(target=plat.serve_forever, daemon=True).start()

reg = {"tool_url": T, "issuer": ISS, "client_id": CLIENT, "auth_login_url": P + "/auth", "keyset_url": P + "/jwks",
       "token_url": P + "/token", "deployment_ids": [DEPLOY]}
open(tmp + "/lti.json", "w").write(json.dumps(reg))
state = tmp + "/state"

# a registration that is wrong: one line, exit 2
bad = dict(reg); del bad["token_url"]
open(tmp + "/bad.json", "w").write(json.dumps(bad))
r = subprocess.run([ws, "serve", "--port", "0", "--state", tmp + "/bad-state", "--lti", tmp + "/bad.json"], capture_output=True, text=True, timeout=60)
check(r.returncode == 2 and "token_url" in r.stderr, "a registration without token_url: exit 2 naming it: %d %s" % (r.returncode, r.stderr))

server = subprocess.Popen([ws, "serve", "--port", str(tport), "--state", state, "--token", "teacher-token-42", "--workers", "2", "--lti", tmp + "/lti.json"],
                          stdout=subprocess.PIPE, stderr=open(tmp + "/serve.err", "a"), text=True)
open(pidfile, "w").write(str(server.pid))
line = server.stdout.readline()
if "http://127.0.0.1:%d/" % tport not in line:
    print("FAIL: serve did not start:", line, open(tmp + "/serve.err").read())
    sys.exit(1)
threading.Thread(target=lambda: server.stdout.read(), daemon=True).start()
import os, stat
kst = os.stat(state + "/lti-key.json")
check(stat.S_IMODE(kst.st_mode) == 0o600, "the tool's key made 0600: %o" % kst.st_mode)

class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *a): return None
opener = urllib.request.build_opener(NoRedirect)
def call(method, path, data=None, headers=None):
    req = urllib.request.Request(T + path, data=data, method=method, headers=headers or {})
    try:
        r = opener.open(req, timeout=300)
        return r.status, r.read().decode(), r.headers
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(), e.headers

def students():
    db = sqlite3.connect(state + "/class.db")
    n = db.execute("SELECT COUNT(*) FROM lab_students").fetchone()[0]
    db.close()
    return n

def login():
    st, body, h = call("GET", "/lti/login?" + urllib.parse.urlencode({"iss": ISS, "login_hint": "u1", "target_link_uri": T + "/lti/launch",
                                                                       "lti_message_hint": "m1", "client_id": CLIENT}))
    loc = h.get("Location") or ""
    q = urllib.parse.parse_qs(urllib.parse.urlparse(loc).query)
    cookie = re.search(r"ws_lti_state=([0-9a-f]+)", h.get("Set-Cookie") or "")
    ok = st == 302 and loc.startswith(P + "/auth?") and cookie and q.get("state") == [cookie.group(1)] and q.get("redirect_uri") == [T + "/lti/launch"] \
        and q.get("client_id") == [CLIENT] and q.get("response_mode") == ["form_post"] and q.get("nonce")
    if not check(ok, "the login sends the browser to the platform with state (in a cookie too) and nonce: %s %s %s" % (st, loc, h.get("Set-Cookie"))):
        sys.exit(1)
    check("SameSite=None" in h["Set-Cookie"] and "Secure" in h["Set-Cookie"] and "HttpOnly" in h["Set-Cookie"],
          "the state cookie comes back on the platform's POST: %s" % h["Set-Cookie"])
    return q["state"][0], q["nonce"][0]

STUDENT = ["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"]
TEACHER = ["http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"]
def claims(nonce, sub="stu-1", name="Ana Lima", roles=STUDENT, kind="LtiResourceLinkRequest", **over):
    now = int(time.time())
    c = {"iss": ISS, "aud": CLIENT, "sub": sub, "iat": now, "exp": now + 300, "nonce": nonce, "name": name,
         "https://purl.imsglobal.org/spec/lti/claim/message_type": kind,
         "https://purl.imsglobal.org/spec/lti/claim/version": "1.3.0",
         "https://purl.imsglobal.org/spec/lti/claim/deployment_id": DEPLOY,
         "https://purl.imsglobal.org/spec/lti/claim/target_link_uri": T + "/lti/launch",
         "https://purl.imsglobal.org/spec/lti/claim/resource_link": {"id": "rl-1"},
         "https://purl.imsglobal.org/spec/lti/claim/roles": roles,
         "https://purl.imsglobal.org/spec/lti/claim/custom": {"exercise": "02"},
         "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint": {"scope": ["https://purl.imsglobal.org/spec/lti-ags/scope/score",
                                                                             "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"],
                                                                   "lineitems": P + "/lineitems?type_id=1", "lineitem": LINEITEM}}
    c.update(over)
    return {k: v for k, v in c.items() if v is not None}

def signed(c, kid="k1", key=None):
    return jwt.encode(c, key or keys[kid], algorithm="RS256", headers={"kid": kid})

def launch(token, state_, cookie=True, extra=None, path="/lti/launch"):
    form = {"id_token": token, "state": state_}
    form.update(extra or {})
    return call("POST", path, urllib.parse.urlencode(form).encode(),
                {"Content-Type": "application/x-www-form-urlencoded", "Origin": P, **({"Cookie": "ws_lti_state=" + state_} if cookie else {})})

def refused(what, st, body, h, before, phrase):
    check(400 <= st < 500 and phrase in body and "this launch was refused" in body,
          "%s: refused with a page saying \"%s\": %s %s" % (what, phrase, st, re.sub(r"\s+", " ", body)[:400]))
    check("ws_session" not in (h.get("Set-Cookie") or "") and "ws_teacher" not in (h.get("Set-Cookie") or ""),
          "%s: no session given: %s" % (what, h.get("Set-Cookie")))
    check(students() == before, "%s: no student made (%d, were %d)" % (what, students(), before))

# ---- a good student launch, and a Check's score at the platform ----
n0 = students()
s1, nonce1 = login()
good = signed(claims(nonce1))
st, body, h = launch(good, s1)
sess = re.search(r"ws_session=([0-9a-f]{32})", h.get("Set-Cookie") or "")
check(st == 200 and sess and "Ana Lima" in body and "exercise=02-v1-padding" in body, "a student's launch: a session and the exercise: %s %s %s" % (st, h.get("Set-Cookie"), body[:300]))
check(students() == n0 + 1, "a student's launch made one student: %d" % students())
cookie = {"Cookie": "ws_session=" + sess.group(1)} if sess else {}
solution = open(src + "/tests/exercises/02-v1-padding.solution.cu").read()
t0 = time.time()
st, body, _ = call("POST", "/api/check", json.dumps({"exercise": "02", "source": solution}).encode(), {"Content-Type": "application/json", **cookie})
check(st == 200, "the launched student's Check is judged: %s %s" % (st, body[:300]))
if st == 200:
    f = json.loads(body)
    f = f["files"][0] if "files" in f else f
    met, total = sum(1 for g in f["goals"] if g["met"]), len(f["goals"])
    check(json.loads(body).get("student") == "Ana Lima", "the try is the launch's student: %s" % body[:200])
    goals02 = len(json.load(open(src + "/lessons/exercises/02-v1-padding.json"))["exercise"]["goals"])
    check(total == goals02 and met == total, "the model solution meets all %d goals of its file: %d of %d" % (goals02, met, total))
    while not got["scores"] and time.time() - t0 < 60:
        time.sleep(0.2)
    check(got["scores"], "the platform received a score within a minute (token errors: %s; serve: %s)" % (got["token_errors"], open(tmp + "/serve.err").read()[-600:]))
    if got["scores"]:
        ctype, sc = got["scores"][0]
        check(ctype == "application/vnd.ims.lis.v1.score+json", "the score's type: %s" % ctype)
        check(sc["userId"] == "stu-1" and sc["scoreGiven"] == met and sc["scoreMaximum"] == total and total > 0 and sc["gradingProgress"] == "FullyGraded",
              "the score is the launch's user, goals met %d of %d: %s" % (met, total, sc))
    check(got.get("score_posts") == 2, "the score refused once (503) was sent again: %s posts" % got.get("score_posts"))
    check("not taken by the platform" in open(tmp + "/serve.err").read(), "the platform's refusal is logged")
    check(got["tokens"] == 1 and not got["token_errors"], "one access token, its assertion verified: %s %s" % (got["tokens"], got["token_errors"]))

# the same student launching again: a new session, the same one student
s2, nonce2 = login()
st, body, h = launch(signed(claims(nonce2)), s2)
sess2 = re.search(r"ws_session=([0-9a-f]{32})", h.get("Set-Cookie") or "")
check(st == 200 and sess2 and sess and sess2.group(1) != sess.group(1) and students() == n0 + 1,
      "a second launch: a new session id for the same student: %s %s %d" % (st, h.get("Set-Cookie"), students()))
if sess:
    st, body, _ = call("POST", "/api/trace", b"{}", {"Content-Type": "application/json", "Cookie": "ws_session=" + sess.group(1)})
    check(st == 401, "the first launch's session ends with the second: %s" % st)

# ---- refused ----
n1 = students()
s, n = login()
st, body, h = launch(good, s)
refused("the first launch sent again (its nonce spent)", st, body, h, n1, "used already")
s, n = login()
tok = signed(claims(n))
head, payload, sig = tok.split(".")
tampered = head + "." + base64.urlsafe_b64encode(json.dumps(dict(claims(n), sub="stu-9")).encode()).decode().rstrip("=") + "." + sig
st, body, h = launch(tampered, s)
refused("claims changed after signing", st, body, h, n1, "signature does not verify")
s, n = login()
st, body, h = launch(signed(claims(n), kid="k1", key=keys["stranger"]), s)
refused("signed by another key under the platform's kid", st, body, h, n1, "signature does not verify")
fetched = got["jwks"]
s, n = login()
time.sleep(1.1)
st, body, h = launch(signed(claims(n), kid="stranger"), s)
refused("a key the keyset does not hold", st, body, h, n1, "does not hold")
check(got["jwks"] == fetched + 1, "an unknown kid fetches the keyset once more: %d -> %d" % (fetched, got["jwks"]))
s, n = login()
st, body, h = launch(signed(claims(n, aud="another-tool")), s)
refused("another audience", st, body, h, n1, "audience")
s, n = login()
st, body, h = launch(signed(claims(n, aud=[CLIENT, "another-tool"], azp="another-tool")), s)
refused("an authorized party not this tool", st, body, h, n1, "authorized party")
s, n = login()
st, body, h = launch(signed(claims(n, exp=int(time.time()) - 600, iat=int(time.time()) - 900)), s)
refused("an expired token", st, body, h, n1, "expired")
s, n = login()
st, body, h = launch(signed(claims(n, **{"https://purl.imsglobal.org/spec/lti/claim/deployment_id": "dep-other"})), s)
refused("another deployment", st, body, h, n1, "deployment")
s, n = login()
st, body, h = launch(signed(claims(n, iss="https://evil.example")), s)
refused("another issuer", st, body, h, n1, "issuer")
s, n = login()
st, body, h = launch(signed(claims(n)), s, cookie=False)
refused("no state cookie (a launch from another browser)", st, body, h, n1, "state")
s, n = login()
st, body, h = launch(signed(claims("a-nonce-never-given")), s)
refused("a nonce the tool never gave", st, body, h, n1, "nonce")
# an instructor's role by any means but the signed roles claim
s, n = login()
none_tok = jwt.encode(claims(n, roles=TEACHER), None, algorithm="none", headers={"kid": "k1"}) if "none" in jwt.algorithms.get_default_algorithms() else None
if none_tok is None:
    hdr = base64.urlsafe_b64encode(json.dumps({"alg": "none", "kid": "k1"}).encode()).decode().rstrip("=")
    pl = base64.urlsafe_b64encode(json.dumps(claims(n, roles=TEACHER)).encode()).decode().rstrip("=")
    none_tok = hdr + "." + pl + "."
st, body, h = launch(none_tok, s)
refused("an unsigned token (alg none) claiming the instructor", st, body, h, n1, "RS256")
s, n = login()
pem = keys["k1"].public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
hdr = base64.urlsafe_b64encode(json.dumps({"alg": "HS256", "kid": "k1", "typ": "JWT"}).encode()).decode().rstrip("=")
pl = base64.urlsafe_b64encode(json.dumps(claims(n, roles=TEACHER)).encode()).decode().rstrip("=")
import hmac, hashlib
mac = base64.urlsafe_b64encode(hmac.new(pem, (hdr + "." + pl).encode(), hashlib.sha256).digest()).decode().rstrip("=")
st, body, h = launch(hdr + "." + pl + "." + mac, s)
refused("HS256 keyed with the platform's public key, claiming the instructor", st, body, h, n1, "RS256")
s, n = login()
st, body, h = launch(signed(claims(n, roles=TEACHER), kid="k1", key=keys["stranger"]), s)
refused("an instructor's roles signed by a key not the platform's", st, body, h, n1, "signature does not verify")
# a student's signed token saying Instructor in a custom claim, in the form, in the address: a student
s, n = login()
st, body, h = launch(signed(claims(n, sub="stu-2", name="Bo", **{"https://purl.imsglobal.org/spec/lti/claim/custom": {"exercise": "02", "roles": TEACHER[0], "role": "Instructor"},
                                                                   "role": "Instructor", "https://purl.imsglobal.org/spec/lti/claim/ext": {"roles": TEACHER}})), s,
                     extra={"roles": TEACHER[0], "role": "Instructor"}, path="/lti/launch?role=Instructor&roles=Instructor")
check(st == 200 and "ws_session=" in (h.get("Set-Cookie") or "") and "ws_teacher" not in (h.get("Set-Cookie") or ""),
      "a student's token with an instructor role outside its roles claim: a student: %s %s" % (st, h.get("Set-Cookie")))
bo = re.search(r"ws_session=([0-9a-f]{32})", h.get("Set-Cookie") or "")
st, body, _ = call("GET", "/api/class", None, {"Cookie": "ws_session=" + (bo.group(1) if bo else "0" * 32)})
check(st == 401, "the posing student cannot see the class: %s" % st)

# ---- an instructor's launch: the teacher, signed in ----
s, n = login()
st, body, h = launch(signed(claims(n, sub="teach-1", name="Ms Teacher", roles=TEACHER)), s)
tc = re.search(r"ws_teacher=([0-9a-f]{32})", h.get("Set-Cookie") or "")
check(st == 200 and tc and "/class" in body, "an instructor's launch signs the teacher in: %s %s" % (st, h.get("Set-Cookie")))
if tc:
    st, body, _ = call("GET", "/api/class", None, {"Cookie": "ws_teacher=" + tc.group(1)})
    check(st == 200 and "Ana Lima" in body, "the launched teacher sees the class with its student: %s %s" % (st, body[:200]))

# ---- the roster: a launched student is one of the class's, in its view, its grades and its Remove ----
if tc:
    teacher = {"Cookie": "ws_teacher=" + tc.group(1)}
    st, body, h = call("GET", "/api/class/grades.csv", None, teacher)
    rows = [l for l in body.splitlines() if l.startswith("Ana Lima,") or l.startswith('"Ana Lima"')]
    check(st == 200 and len(rows) == 1, "the grades' CSV holds the launched student once: %s %s" % (st, body[:400]))
    post = {"Content-Type": "application/json", "Origin": T}
    st, body, _ = call("POST", "/api/class/remove", json.dumps({"student": "Ana Lima"}).encode(), {**post, **teacher})
    check(st == 200, "the teacher removes the launched student: %s %s" % (st, body[:200]))
    st, body, _ = call("GET", "/api/class", None, teacher)
    check(st == 200 and "Ana Lima" not in body, "the removed launched student has left the class's view: %s" % body[:300])
    # the name is free: a student typing it takes it, and the platform's user launching again is named afresh, never taking it back
    st, body, h = call("POST", "/api/join", json.dumps({"name": "Ana Lima"}).encode(), post)
    typed = re.search(r"ws_session=([0-9a-f]{32})", h.get("Set-Cookie") or "")
    check(st == 200 and typed, "a typed join takes the removed launched student's name: %s %s" % (st, body[:200]))
    s_, n_ = login()
    st, body, h = launch(signed(claims(n_)), s_)
    check(st == 200 and "Ana Lima (2)" in body, "the removed student's next launch is named afresh: %s %s" % (st, re.sub(r"\s+", " ", body)[:300]))
    if typed:
        st, body, _ = call("POST", "/api/trace", b"{}", {"Content-Type": "application/json", "Origin": T, "Cookie": "ws_session=" + typed.group(1)})
        check(st != 401, "the typed student keeps the name and the session after the launch: %s %s" % (st, body[:200]))

# ---- the platform turns its key: the new kid is fetched ----
published[:] = ["k1", "k2"]
time.sleep(1.1)
s, n = login()
st, body, h = launch(signed(claims(n, sub="stu-3", name="Cy"), kid="k2"), s)
check(st == 200 and "ws_session=" in (h.get("Set-Cookie") or ""), "a launch signed with the platform's new key: %s %s" % (st, body[:300]))

# ---- Deep Linking ----
s, n = login()
dl = {"deep_link_return_url": P + "/deeplink/return", "accept_types": ["ltiResourceLink"], "accept_presentation_document_targets": ["window"], "data": "opaque-42"}
st, body, h = launch(signed(claims(n, sub="teach-1", roles=STUDENT, kind="LtiDeepLinkingRequest",
                                   **{"https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings": dl})), s)
refused("a student's Deep Linking request", st, body, h, students(), "teacher")
s, n = login()
st, body, h = launch(signed(claims(n, sub="teach-1", roles=TEACHER, kind="LtiDeepLinkingRequest",
                                   **{"https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings": dl})), s)
ticket = re.search(r'name="ticket" value="([0-9a-f]+)"', body)
offered = re.findall(r'name="exercise" value="([^"]+)"', body)
check(st == 200 and ticket and len(offered) >= 9, "the teacher's Deep Linking request offers the exercises: %s %s" % (st, offered))
if ticket and len(offered) >= 2:
    form = urllib.parse.urlencode([("ticket", ticket.group(1)), ("exercise", offered[0]), ("exercise", offered[1])]).encode()
    st, body, h = call("POST", "/lti/deeplink", form, {"Content-Type": "application/x-www-form-urlencoded"})
    m = re.search(r'action="([^"]+)".*name="JWT" value="([^"]+)"', body, re.S)
    check(st == 200 and m and m.group(1) == P + "/deeplink/return", "the choice goes back to the platform as a form: %s %s" % (st, body[:300]))
    if m:
        tool_keys = json.loads(call("GET", "/lti/jwks")[1])["keys"]
        kid = jwt.get_unverified_header(m.group(2))["kid"]
        pub = jwt.algorithms.RSAAlgorithm.from_jwk(json.dumps([k for k in tool_keys if k["kid"] == kid][0]))
        c = jwt.decode(m.group(2), pub, algorithms=["RS256"], audience=ISS)
        items = c.get("https://purl.imsglobal.org/spec/lti-dl/claim/content_items", [])
        check(c["iss"] == CLIENT and c["https://purl.imsglobal.org/spec/lti/claim/message_type"] == "LtiDeepLinkingResponse"
              and c["https://purl.imsglobal.org/spec/lti-dl/claim/data"] == "opaque-42"
              and c["https://purl.imsglobal.org/spec/lti/claim/deployment_id"] == DEPLOY, "the Deep Linking response's claims: %s" % c)
        ex_goals = {}
        for x in offered[:2]:
            lj = [p for p in os.listdir(src + "/lessons/exercises") if p.endswith(".json")]
            for p in lj:
                d = json.load(open(src + "/lessons/exercises/" + p))
                if d.get("id") == x:
                    ex_goals[x] = len(d["exercise"]["goals"]) + (1 if d["exercise"].get("gpu", {}).get("fraction") else 0) if "exercise" in d else None  # and the card goal, where one is
        check(len(items) == 2 and all(i["type"] == "ltiResourceLink" and i["url"] == T + "/lti/launch" and i["custom"]["exercise"] == x
                                      and i["lineItem"]["resourceId"] == x and i["lineItem"]["scoreMaximum"] == ex_goals.get(x)
                                      for i, x in zip(items, offered[:2])),
              "an ltiResourceLink with a lineItem (its goals, counted in the exercise's file) per exercise chosen: %s %s" % (items, ex_goals))
    st, body, h = call("POST", "/lti/deeplink", form, {"Content-Type": "application/x-www-form-urlencoded"})
    check(st == 403, "a Deep Linking choice is sent once: %s" % st)

server.terminate()
rc = server.wait(timeout=30)
check(rc == 0 and "Sanitizer" not in open(tmp + "/serve.err").read(), "serve stops cleanly on SIGTERM (%s): %s" % (rc, open(tmp + "/serve.err").read()[-1500:]))

# the tool's key given as PEM (made here by cryptography): its public half is what /lti/jwks serves;
# a key others may read is refused
pem_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
open(tmp + "/tool.pem", "wb").write(pem_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
os.chmod(tmp + "/tool.pem", 0o600)
p2 = free_port()
open(tmp + "/lti2.json", "w").write(json.dumps(dict(reg, tool_url="http://127.0.0.1:%d" % p2)))
second = subprocess.Popen([ws, "serve", "--port", str(p2), "--state", tmp + "/state2", "--lti", tmp + "/lti2.json", "--lti-key", tmp + "/tool.pem"],
                          stdout=subprocess.PIPE, stderr=open(tmp + "/serve2.err", "w"), text=True)
open(pidfile, "w").write(str(second.pid))
second.stdout.readline()
try:
    served = json.loads(urllib.request.urlopen("http://127.0.0.1:%d/lti/jwks" % p2, timeout=30).read())["keys"]
    n = int.from_bytes(base64.urlsafe_b64decode(served[0]["n"] + "=="), "big")
    check(len(served) == 1 and n == pem_key.public_key().public_numbers().n and served[0]["alg"] == "RS256", "the PEM key's public half at /lti/jwks")
except Exception as e:
    check(False, "the PEM key's server answers /lti/jwks: %r" % e)
second.terminate()
rc = second.wait(timeout=30)
check(rc == 0, "the second serve stops cleanly (%s): %s" % (rc, open(tmp + "/serve2.err").read()[-1500:]))
os.chmod(tmp + "/tool.pem", 0o644)
r = subprocess.run([ws, "serve", "--port", "0", "--state", tmp + "/state2", "--lti", tmp + "/lti2.json", "--lti-key", tmp + "/tool.pem"],
                   capture_output=True, text=True, timeout=60)
check(r.returncode == 2 and "0600" in r.stderr, "a tool key others may read: exit 2 saying 0600: %d %s" % (r.returncode, r.stderr))
if fails:
    print("%d failed" % len(fails))
    sys.exit(1)
print("ok: LTI launches verified, refused, scored and deep-linked")
EOF
