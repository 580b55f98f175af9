#!/bin/sh
# Device printf in a kernel of one's own (tests/own/printf_per_thread.cu): each thread's line is
# formatted as printf formats it and kept in the trace at its step and line, stats and capture print
# them after the result ("printf output (N lines):", "  | block B thread T: text", every line behind "  | "), the capture's limits
# cut a flood and say so, the compact trace keeps them, and seed 001's first code block (a kernel
# that only prints) runs. Expected lines come from the formulas: ramp data, in[i] = i.
. "$(dirname "$0")/own_test_setup.sh"
k="$own/printf_per_thread.cu"

# every thread of a block of 64, ramp data: "t=T v=T.0 even|odd", warp 0's lanes, then warp 1's
"$ws" stats --kernel "$k" --entry 'show<<<1, 64>>>(in, out, n)' --n 64 --data ramp >"$tmp/all.txt" 2>"$tmp/err" ||
    { echo "FAIL: stats of a printing kernel"; cat "$tmp/err"; fail=1; }
python3 - "$tmp/all.txt" <<'PY' || { echo "FAIL: the 64 lines of printf"; cat "$tmp/all.txt"; fail=1; }
import sys
lines = open(sys.argv[1]).read().split("\n")
i = lines.index("printf output (64 lines):")
assert lines[i - 1].startswith("result 2016,"), "printf output comes after the result"
want = ["  | block 0 thread %d: t=%d v=%d.0 %s" % (t, t, t, "odd" if t % 2 else "even") for t in range(64)]
assert lines[i + 1:i + 65] == want, lines[i + 1:i + 65]
PY

# every 8th thread: in the trace, one printf event per warp with lanes 0, 8, 16, 24 (mask 0x01010101),
# at the printf's line, each line naming it
"$ws" capture --kernel "$k" --define EVERY=8 --entry 'show<<<2, 64>>>(in, out, n)' --n 128 --data ramp -o "$tmp/p.json" >"$tmp/cap.txt" 2>"$tmp/err" ||
    { echo "FAIL: capture of a printing kernel"; cat "$tmp/err"; fail=1; }
python3 - "$tmp/p.json" "$tmp/cap.txt" "$k" <<'PY' || { echo "FAIL: the printf events of EVERY=8"; fail=1; }
import json, sys
t = json.load(open(sys.argv[1]))
line = [n for n, l in enumerate(open(sys.argv[3]), 1) if "printf(\"t=" in l][0]
ev = [(i, e) for i, e in enumerate(t["events"]) if e["k"] == "printf" and e["l"] == line]
assert [e["w"] for i, e in ev] == [0, 1] and all(e["m"] == 0x01010101 for i, e in ev), ev
pr = t["prints"]
# block 0 is traced (events), block 1 is not (event -1): 8 lines each, in thread order
assert [(p["block"], p["thread"]) for p in pr] == [(b, th) for b in (0, 1) for th in range(0, 64, 8)], pr
for p in pr:
    assert p["line"] == line and p["text"] == "t=%d v=%d.0 even" % (p["thread"], 64 * p["block"] + p["thread"]), p
    assert p["event"] == (ev[p["thread"] // 32][0] if p["block"] == 0 else -1), p
out = open(sys.argv[2]).read().split("\n")
assert "printf output (16 lines):" in out and "  | block 1 thread 56: t=56 v=120.0 even" in out, out
PY

# the compact trace keeps the lines: stats of it prints what stats of the JSON one prints
"$ws" capture --kernel "$k" --define EVERY=8 --entry 'show<<<2, 64>>>(in, out, n)' --n 128 --data ramp -o "$tmp/p.wstrace" >/dev/null 2>&1
"$ws" stats "$tmp/p.wstrace" 2>/dev/null | sed -n '/^printf output/,/^on the/p' >"$tmp/c.txt"
"$ws" stats "$tmp/p.json" 2>/dev/null | sed -n '/^printf output/,/^on the/p' >"$tmp/j.txt"
[ -s "$tmp/c.txt" ] && cmp -s "$tmp/c.txt" "$tmp/j.txt" || { echo "FAIL: the compact trace's printf lines differ"; diff "$tmp/c.txt" "$tmp/j.txt"; fail=1; }

# a flood: 256 threads x 21 lines = 5376, past the 4096 a capture keeps; the rest is said to be cut
"$ws" stats --kernel "$k" --define LINES=20 --entry 'show<<<1, 256>>>(in, out, n)' --n 256 --data ramp >"$tmp/flood.txt" 2>"$tmp/err" ||
    { echo "FAIL: stats of a flood of printf"; cat "$tmp/err"; fail=1; }
grep -q "^printf output (4096 lines):" "$tmp/flood.txt" && grep -q "^(1280 more lines cut: a capture keeps at most 4096 lines" "$tmp/flood.txt" ||
    { echo "FAIL: the flood is not cut and said so"; grep -E "printf output|more line" "$tmp/flood.txt"; fail=1; }

# seed 001's first code block, byte for byte: 4 blocks of 128, lanes 0 and 16 of each warp print
# " idx block warp lane" in printf's widths
"$ws" stats --kernel "$own/seed001_index_print.cu" --entry 'index_print_kernel<<<4, 128>>>()' --n 512 >"$tmp/seed.txt" 2>"$tmp/err"
python3 - "$tmp/seed.txt" <<'PY' || { echo "FAIL: seed 001's index_print_kernel"; cat "$tmp/err"; fail=1; }
import sys
lines = open(sys.argv[1]).read().split("\n")
i = lines.index("printf output (32 lines):")
want = ["  | block %d thread %d:  %5d\t%5d\t %2d\t%2d" % (b, t, b * 128 + t, b, t // 32, t % 32) for b in range(4) for t in range(0, 128, 16)]
assert lines[i + 1:i + 33] == want, (lines[i + 1:i + 33], want)
PY
exit $fail
