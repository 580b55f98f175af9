#!/bin/sh
# render --view passes draws Harris's kernel decomposition from the trace: v1 over a ramp x[i] = i
# at a block of 256 and n = 2^16, every block traced, is level 0 (256 blocks, each reducing 256
# elements with 255 adds in a chain of log2 256 = 8, block b storing the sum of its slice,
# 65536 b + 32640) and level 1 (one block over the 256 partials: 255 adds), n - 1 = 65535 adds in
# all in a chain of log2 n = 16, ending in the result; in Chinese as well; a view that does not
# exist is one line and exit 2. The figures here come from the formulas, not from the program.
ws="$1"
command -v python3 >/dev/null 2>&1 || { echo "FAIL: python3 is needed for this test"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for lang in en zh; do
    "$ws" render --version v1 --block 256 --n 65536 --data ramp --blocks-traced 4096 --view passes --lang $lang --size 1024x768 \
        --presenter -o "$tmp/$lang.json" 2>"$tmp/err" || { echo "FAIL: render --view passes --lang $lang: $(cat "$tmp/err")"; fail=1; }
done
python3 - "$tmp/en.json" "$tmp/zh.json" <<'PY' || fail=1
import json, sys
def texts(path):
    d = json.load(open(path))
    return [i[11] for i in d["items"] if i[11]], d["panels"]
B, N = 256, 65536
ok = True
t, panels = texts(sys.argv[1])
joined = " ".join(t)
want = ["level 0: %d blocks x %d threads, each reduces %d elements" % (N // B, B, B),
        "%d adds, the longest chain 8 adds" % ((N // B) * (B - 1)),
        "level 1: one block of %d threads reduces %d elements" % (B, N // B),
        "%d adds, the longest chain 8 adds" % (B - 1),
        "in all: %d adds for %d elements (n - 1 = %d), the longest chain 16 adds" % (N - 1, N, N - 1),
        ]
for w in want:
    if w not in joined:
        print("FAIL: passes view: no %r in %r" % (w, joined[:400])); ok = False
# each block drawn shows its partial sum, the sum of its slice of the ramp
drawn = [int(t[i][6:]) for i in range(len(t) - 1) if t[i].startswith("block ") and t[i][6:].isdigit()]
if 0 not in drawn or 255 not in drawn:
    print("FAIL: passes view: the blocks drawn are %r: the first and the last (255) should be" % drawn); ok = False
for b in drawn[:-1]:  # level 0's blocks (the last "block 0" is level 1's)
    i = t.index("block %d" % b)
    if abs(float(t[i + 1]) - (65536 * b + 32640)) > 1e-6 * (65536 * b + 32640):
        print("FAIL: passes view: block %d shows %r, its slice sums to %d" % (b, t[i + 1], 65536 * b + 32640)); ok = False
res = [x for x in t if x.startswith("result ")]
S = N * (N - 1) // 2
if not res or [abs(float(v.strip(",")) - S) <= 1e-6 * S for v in res[0].split()[1::2]] != [True, True]:
    print("FAIL: passes view: the result line %r, the sum of the ramp is %d" % (res, S)); ok = False
if "passes" not in panels:
    print("FAIL: passes view: no passes panel in %r" % panels); ok = False
tz, _ = texts(sys.argv[2])
jz = " ".join(tz)
for w in ["第 0 层", "第 1 层", "合计：%d 次加法" % (N - 1)]:
    if w not in jz:
        print("FAIL: passes view in Chinese: no %r" % w); ok = False
sys.exit(0 if ok else 1)
PY
"$ws" render --version v1 --view pases -o "$tmp/x.png" 2>"$tmp/err"; rc=$?
if [ $rc -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -q -- '--view must be passes, grid or bench, got "pases"' "$tmp/err"; then
    echo "FAIL: --view pases: exit $rc, $(cat "$tmp/err")"; fail=1
fi
[ -e "$tmp/x.png" ] && { echo "FAIL: a bad --view wrote a file"; fail=1; }
exit $fail
