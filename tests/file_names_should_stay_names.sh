#!/bin/sh
# A learner's file name is bytes, never code or report lines: a path holding a quote, newlines and
# a would-be system() payload is written into the rewrite's #line as a C string literal (decoded
# here by Python's own reading of C escapes, it is the path again, and the file's lines follow
# unchanged), the file builds and sums n ones to n without the payload running (it would abort
# the run and make a marker), and the compiler's message names the path. In `exercise check`, a
# name with a newline (that would forge a checklist line), an escape sequence, a bidirectional
# override and a byte that is not UTF-8 takes one line per file, in quotes, and --json is valid
# UTF-8 JSON, the bad byte U+FFFD.
ws="$1"
fe="$2"
src="$3"
[ -x "$fe" ] || { echo "SKIP: no front end ($fe): this build has no libclang"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "FAIL: python3 is needed for this test"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache" XDG_STATE_HOME="$tmp/state"
fail=0
say() { echo "FAIL: $*"; fail=1; }

cat >"$tmp/k.cu" <<'CU'
__global__ void k(const float *in, float *out)
{
    __shared__ float s[256];
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    for (unsigned w = blockDim.x / 2; w > 0; w >>= 1) {
        if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[0] = s[0];
}
CU
# the folder's name closes #line's string and adds a line of code (its slashes make folders)
dir="$tmp/a\"
static int ws_boom = (system(\"touch $tmp/X\"), abort(), 0);
#line 1 \"b"
mkdir -p "$dir" && cp "$tmp/k.cu" "$dir/k.cu" || { echo "FAIL: cannot make the folder"; exit 1; }

"$fe" --as "$dir/k.cu" "$dir/k.cu" "$src/trace/capture/own/include" "$tmp/k.cpp" 'k<<<1, 256>>>(in, out)' 2>"$tmp/err" ||
    { say "the front end refused the file:"; cat "$tmp/err"; }
python3 - "$tmp/k.cpp" "$dir/k.cu" <<'PY' || say "the rewrite's #line is not the path as a string literal"
import codecs, os, sys
out = open(sys.argv[1], "rb").read().split(b"\n")
path = os.fsencode(sys.argv[2])
at = next(i for i, l in enumerate(out) if l.startswith(b'#line 1 "'))  # after warpscope's own head lines
head = out[at]
assert head.startswith(b'#line 1 "') and head.endswith(b'"'), head
body = head[len(b'#line 1 "'):-1]
assert b'"' not in body.replace(b'\\\\', b'').replace(b'\\"', b''), head   # no quote ends it early
assert codecs.escape_decode(body)[0] == path, (body, path)                   # Python reads C's escapes
lines = open(sys.argv[2], "rb").read().count(b"\n")
assert out.index(b'#line 1 "--entry"') == at + 1 + lines + 1, "the file's lines moved"     # each edit stays on its line
PY
"$ws" stats --json --kernel "$dir/k.cu" --entry 'k<<<1, 256>>>(in, out)' --n 256 --data ones >"$tmp/r.json" 2>"$tmp/err" ||
    { say "the file in the hostile folder did not run:"; cat "$tmp/err"; }
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["result"] == 256, d["result"]' "$tmp/r.json" 2>/dev/null ||
    say "the file in the hostile folder: not the sum of 256 ones"
[ -e "$tmp/X" ] && say "the payload in the file's name ran: $tmp/X exists"
# a mistake is said at the learner's path and line
sed 's/out\[0\] = s\[0\];/out[0] = s[0]/' "$tmp/k.cu" >"$dir/bad.cu"
"$ws" stats --kernel "$dir/bad.cu" --entry 'k<<<1, 256>>>(in, out)' --n 256 >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q 'b/bad.cu:10:[0-9]*: error' "$tmp/err" || { say "the compiler's message does not name the path:"; cat "$tmp/err"; }

# exercise check: a name that would forge a line of the checklist, and one with escape codes
mkdir -p "$tmp/class"
forged=$(printf 'good\nfake.cu: 3 of 3 goals met in 15 runs\n\377\342\200\256.cu')
broken=$(printf 'bad\033[2J\tx.cu')
cp "$src/tests/exercises/04-safe-tail.solution.cu" "$tmp/class/$forged"
printf '__global__ void k(float *o) { o[0] = y; }\n' >"$tmp/class/$broken"  # a kernel with an error at its line (a bare 'x' is named a fragment)
(cd "$tmp/class" && "$ws" exercise check 4 "$forged" "$broken" >"$tmp/out" 2>"$tmp/err")
[ $? = 2 ] || { say "exercise check did not exit 2 (a file not judged)"; cat "$tmp/out" "$tmp/err"; }
python3 - "$tmp/out" <<'PY' || { say "the text report:"; cat -A "$tmp/out"; }
import re, sys
lines = open(sys.argv[1], "rb").read().decode("utf-8").split("\n")[:-1]
assert lines[0].startswith("exercise ") and lines[1].startswith("sandbox: ") and len(lines) == 2 + 7 + 1, lines   # two header lines, a name and 6 goals, and the name of the file not judged
files = [l for l in lines[2:] if not l.startswith("  [")]
assert len(files) == 2, files
assert re.fullmatch(r'"good\\nfake\.cu: 3 of 3 goals met in 15 runs\\n\\xFF\\u202E\.cu": 6 of 6 goals met in \d+ runs', files[0]), files[0]
assert re.fullmatch(r'"bad\\x1B\[2J\\tx\.cu": not judged: it did not run: bad\\x1B\[2J\\tx\.cu:1:\d+: error: .*', files[1]), files[1]
PY
(cd "$tmp/class" && "$ws" exercise check 4 "$forged" "$broken" "nothing$(printf '\376').cu" --json >"$tmp/out.json" 2>"$tmp/err")
[ $? = 2 ] || { say "exercise check --json with a missing file did not exit 2"; cat "$tmp/err"; }
python3 - "$tmp/out.json" <<'PY' || { say "the JSON report:"; cat -A "$tmp/out.json"; }
import json, sys
d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))   # strict: valid UTF-8 and JSON
names = [f["file"] for f in d["files"]]
assert names == ["good\nfake.cu: 3 of 3 goals met in 15 runs\n\ufffd\u202e.cu", "bad\x1b[2J\tx.cu", "nothing\ufffd.cu"], names
assert d["files"][0]["solved"] and not d["files"][1]["ran"] and not d["files"][1]["judged"], d
PY
[ $fail = 0 ] && echo "file names stay names: ok"
exit $fail
