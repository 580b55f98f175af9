#!/bin/sh
# warpscope hazards: the textbook tail breaks under the adversarial schedule and names its six
# lines (found here in the kernel file by their text); v4s stays right and hazard-free; --json is
# one object whose result agrees with the text output.
ws="$1"
# the content checks read JSON with python3 (tools/setup-debian.sh installs it): none is skipped
command -v python3 >/dev/null 2>&1 || { echo "FAIL: python3 is needed for this test"; exit 1; }
root="$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
"$ws" hazards --version v4 --schedule adversarial >"$tmp/v4.txt" || { echo "FAIL: hazards v4"; exit 1; }
grep -q "WRONG" "$tmp/v4.txt" || { echo "FAIL: v4 adversarial should give a wrong sum"; fail=1; }
for step in 32 16 8 4 2 1; do
    line=$(grep -n "sdata\[tid\] += sdata\[tid + $step\];" "$root/kernels/v4.cu" | cut -d: -f1)
    grep -q "kernels/v4.cu:$line: " "$tmp/v4.txt" || { echo "FAIL: v4's line $line (+$step) not named"; fail=1; }
done
"$ws" hazards --version v4s --schedule adversarial >"$tmp/v4s.txt" || { echo "FAIL: hazards v4s"; exit 1; }
grep -q "right" "$tmp/v4s.txt" && grep -q "^no hazards" "$tmp/v4s.txt" || { echo "FAIL: v4s: $(cat "$tmp/v4s.txt")"; fail=1; }
# v2 without the barrier of its loop (the file's second __syncthreads): hazards on the loop's line
bar=$(grep -n "__syncthreads();" "$root/kernels/v2.cu" | sed -n 2p | cut -d: -f1)
loop=$(grep -n "sdata\[tid\] += sdata\[tid + s\];" "$root/kernels/v2.cu" | cut -d: -f1)
"$ws" hazards --version v2 --drop-barrier "$bar" --json >"$tmp/v2.json" || { echo "FAIL: hazards --json"; exit 1; }
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); b,l=int(sys.argv[2]),int(sys.argv[3]); assert d["drop_barrier"]==b and not d["right"] and d["hazards"] and all(h["first"]["line"]==l and h["second"]["line"]==l for h in d["hazards"]), d' \
    "$tmp/v2.json" "$bar" "$loop" || { echo "FAIL: hazards --json content"; fail=1; }
[ $fail -eq 0 ] && echo "cli_hazards: ok"
exit $fail
