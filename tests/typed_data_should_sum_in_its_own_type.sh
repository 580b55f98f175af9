#!/bin/sh
# --type: a kernel of one's own on int, unsigned, double and long long data (tests/own/typed_sum.cu,
# one tree-and-atomicAdd kernel compiled for each type). References computed here, not by
# warpscope: the int sums exactly against Python's integers (64-bit and beyond), an int sum that
# overflows is reported WRONG with the true sum, and the double sum against a compensated (fsum,
# exactly rounded) sum of the same values. The trace keeps every value exactly: the values the
# trace shows loaded are the input itself.
. "$(dirname "$0")/own_test_setup.sh"
k="$own/typed_sum.cu"
entry='typed_sum<<<(n + 255) / 256, 256>>>(in, out, n)'

# capture TYPE N DATA NAME: every block traced, the JSON trace in $tmp/NAME.json, stats in NAME.txt
capture() {
    # exit 1 is a wrong result, its trace written all the same
    "$ws" capture --kernel "$k" --define "ELEM=$1" --type "$1" --entry "$entry" --n "$2" --data "$3" --blocks-traced 1000 \
        -o "$tmp/$4.json" >/dev/null 2>"$tmp/err"
    rc=$?
    [ "$rc" -le 1 ] && [ -s "$tmp/$4.json" ] || { echo "FAIL: capture --type $1 --n $2 --data $3"; cat "$tmp/err"; fail=1; }
    "$ws" stats --kernel "$k" --define "ELEM=$1" --type "$1" --entry "$entry" --n "$2" --data "$3" >"$tmp/$4.txt" 2>&1
    echo $? >"$tmp/$4.rc"
}

# judge NAME TYPE WANT: the input from the trace's loads of buffer 0, summed here; WANT exact|wrapped|close
judge() {
    python3 - "$tmp/$1.json" "$2" "$3" <<'PY' || { echo "FAIL: $1"; fail=1; }
import json, math, sys
t = json.load(open(sys.argv[1]))
ty, want = sys.argv[2], sys.argv[3]
assert t["provenance"]["type"] == ty, t["provenance"]
n = t["provenance"]["n"]
x = {}
for e in t["events"]:
    if e["k"] == "global_load" and e["g"] == 0:
        for a, v in zip(e["a"], e["v"]):
            x[a] = v
assert sorted(x) == list(range(n)), "every element loaded once"
if ty in ("int", "unsigned", "long long"):
    assert all(float(v).is_integer() for v in x.values())
    exact = sum(int(v) for v in x.values())  # Python's integers: no overflow, no rounding
    bits = {"int": 32, "unsigned": 32, "long long": 64}[ty]
    wrapped = exact % (1 << bits)
    if ty != "unsigned" and wrapped >= 1 << (bits - 1): wrapped -= 1 << bits
    assert t["reference"] == exact, ("reference", t["reference"], exact)
    if want == "exact": assert t["result"] == exact, ("result", t["result"], exact)
    else: assert t["result"] == wrapped != exact, ("wrapped", t["result"], wrapped, exact)
else:
    ref = math.fsum(x.values())  # exactly rounded
    assert abs(t["result"] - ref) <= 1e-12 * sum(abs(v) for v in x.values()), (t["result"], ref)
PY
}

capture int 3000 random-int int_sum && judge int_sum int exact
grep -q "exact, as an integer sum must be" "$tmp/int_sum.txt" && [ "$(cat "$tmp/int_sum.rc")" = 0 ] ||
    { echo "FAIL: an exact int sum is not called exact"; cat "$tmp/int_sum.txt"; fail=1; }
capture unsigned 5000 ramp unsigned_sum && judge unsigned_sum unsigned exact
capture 'long long' 4096 ramp ll_sum && judge ll_sum 'long long' exact
# 0 + 1 + ... + 131071 = 8589869056 does not fit in an int: the kernel's sum wraps, and says so
capture int 131072 ramp int_overflow && judge int_overflow int wrapped
grep -q "WRONG: the true sum 8589869056 does not fit in an int" "$tmp/int_overflow.txt" && [ "$(cat "$tmp/int_overflow.rc")" != 0 ] ||
    { echo "FAIL: the int overflow is not reported"; cat "$tmp/int_overflow.txt"; fail=1; }
# a sum of 10 digits is written whole: 0 + 1 + ... + 99999 = 4999950000 (n (n - 1) / 2)
"$ws" stats --kernel "$k" --define 'ELEM=long long' --type 'long long' --entry "$entry" --n 100000 --data ramp >"$tmp/big.txt" 2>&1 &&
    grep -q "^result 4999950000, double-precision reference 4999950000, difference 0: exact" "$tmp/big.txt" ||
    { echo "FAIL: a long long sum of 10 digits is not written whole"; grep result "$tmp/big.txt"; fail=1; }
capture double 3000 random-float double_sum && judge double_sum double close
capture double 3000 random-float double_sum_bin
# the compact encoding holds the same values: doubles read back bit for bit
"$ws" capture --kernel "$k" --define ELEM=double --type double --entry "$entry" --n 3000 --data random-float -o "$tmp/d.wstrace" >/dev/null 2>&1 &&
    "$ws" stats --json "$tmp/d.wstrace" >"$tmp/d1.json" && "$ws" stats --json "$tmp/double_sum.json" >"$tmp/d2.json" &&
    python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); assert a["result"]==b["result"] and a["reference"]==b["reference"], (a["result"], b["result"])' \
        "$tmp/d1.json" "$tmp/d2.json" || { echo "FAIL: a double trace reads differently from its compact encoding"; fail=1; }

# an integer type takes whole-number data only; a ladder version only float
"$ws" stats --kernel "$k" --define ELEM=int --type int --entry "$entry" --n 100 --data random-float >/dev/null 2>"$tmp/err"
[ $? != 0 ] && grep -q "not an int value" "$tmp/err" || { echo "FAIL: random-float for --type int was not refused"; cat "$tmp/err"; fail=1; }
"$ws" stats --version v2 --type int >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "takes a --kernel of your own" "$tmp/err" || { echo "FAIL: --type int for a version was not refused"; cat "$tmp/err"; fail=1; }
"$ws" stats --kernel "$k" --type short --entry "$entry" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "\-\-type must be" "$tmp/err" || { echo "FAIL: --type short was not refused"; cat "$tmp/err"; fail=1; }
exit $fail
