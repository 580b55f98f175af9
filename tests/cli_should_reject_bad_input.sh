#!/bin/sh
# The bad-input table: each command line below must exit 2 with exactly one line on stderr that
# names what was wrong. Columns: the text the line must contain, then the arguments (shell words;
# $tmp is a scratch folder holding the hostile files made below). Then the writes: a failed or
# interrupted capture leaves the old file (or none) and never touches another file.
ws="$1"
# the trace format's version, as trace.h writes it (the file's own words are checked against it)
schema=$(sed -n 's/^#define TRACE_SCHEMA_VERSION \([0-9]*\)$/\1/p' "$(dirname "$0")/../trace/trace.h")
tmp=$(mktemp -d)
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0
cases=0

# ---- the hostile and malformed files ----
"$ws" capture --version v2 --block 64 -o "$tmp/ok.json" 2>/dev/null || { echo "FAIL: capture of a good trace"; exit 1; }
"$ws" capture --version v2 --block 64 -o "$tmp/ok.wstrace" 2>/dev/null || { echo "FAIL: capture of a good compact trace"; exit 1; }
printf '{"schema": "warpscope-trace",\n "schema_version": 1,\n "provenance": {]}\n' >"$tmp/bad.json"
: >"$tmp/empty.json"
printf 'WSTRACE\032garbage' >"$tmp/garbage.wstrace"
head -c 200 "$tmp/ok.wstrace" >"$tmp/cut.wstrace"
sed 's/"schema": "warpscope-trace"/"schema": "warpscope-lesson"/' "$tmp/ok.json" >"$tmp/schema.json"
sed 's/"schema_version": [0-9]*/"schema_version": 99/' "$tmp/ok.json" >"$tmp/version.json"
sed '0,/"w":0,/s//"w":40,/' "$tmp/ok.json" >"$tmp/warp.json"            # a warp outside the block
sed '0,/"ph":0,/s//"ph":60000,/' "$tmp/ok.json" >"$tmp/phase.json"      # a phase past the limit
sed '0,/"b":0,/s//"b":3,/' "$tmp/ok.json" >"$tmp/block.json"            # a block that was not traced
awk '/"k":"shared_store"/ && !done { sub(/"a":\[0,/, "\"a\":[-5,"); done = 1 } 1' "$tmp/ok.json" >"$tmp/bank.json" # a bank before shared memory
sed 's/"result": [^,]*,/"result": 1e39,/' "$tmp/ok.json" >"$tmp/result.json"
python3 -c 'print("[" * 100000)' >"$tmp/deep.json" 2>/dev/null || awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; print "" }' >"$tmp/deep.json"
mkdir "$tmp/folder.json"
printf '{"schema": "warpscope-bench", "device": "x", "driver": "y", "toolkit": "t", "date": "d", "spec_peak_gbs": 3000, "reps": 30, "rows": [{"name": "v0", "n": 1e19, "ms": 0.1, "gbs": 1, "ok": true}]}' >"$tmp/n.json"
printf '{"schema": "warpscope-bench", "device": "x", "driver": "y", "toolkit": "t", "date": "d", "spec_peak_gbs": 3000, "reps": 30, "rows": [{"name": "v0", "n": 10, "ms": -1, "gbs": 1, "ok": true}]}' >"$tmp/ms.json"
# an asset folder whose light theme has a colour with a non-hex digit
mkdir -p "$tmp/assets/themes" "$tmp/assets/fonts"
sed 's/"working": "#009E73"/"working": "#12345G"/' "$(dirname "$0")/../assets/themes/light.json" >"$tmp/assets/themes/light.json"
cp "$(dirname "$0")/../assets/themes/dark.json" "$tmp/assets/themes/"
echo keep >"$tmp/keep.json"
touch "$tmp/plain"
"$ws" capture --version v2 --n 2^12 -o "$tmp/one.wstrace" 2>/dev/null
printf 'WSTRACE\032\001\000\000\000\001\000\000\000\005abc' >"$tmp/cut2.wstrace"
printf 'not a trace at all' >"$tmp/junk.wstrace"
printf '{\n  \000}' >"$tmp/nul.json"

# ---- the table ----
while IFS='	' read -r want args; do
    [ -z "$want" ] && continue
    case "$want" in \#*) continue ;; esac
    cases=$((cases + 1))
    eval "set -- $args"
    "$ws" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    lines=$(wc -l <"$tmp/err")
    if [ "$rc" -ne 2 ] || ! grep -qF -- "$want" "$tmp/err" || [ "$lines" -ne 1 ]; then
        echo "FAIL: warpscope $args -> exit $rc, $lines line(s): $(head -c 400 "$tmp/err") (wanted exit 2 and one line with: $want)"
        fail=1
    fi
done <<EOF_TABLE
# commands and flags: unknown, misplaced, missing their value
unknown command "frobnicate" (warpscope help lists the commands)	frobnicate
unknown command "sats"; did you mean "stats"?	sats
unknown command "frobnicate"	help frobnicate
unknown flag "--blcok" for warpscope stats; did you mean "--block"?	stats --version v2 --blcok 64
lesson takes one subcommand: list, print or check, not "prnt"; did you mean "print"?	lesson prnt x.json
--completion writes a script for bash, not "zsh"	help --completion zsh
--version alone says which warpscope this is	--version v2
"--block" comes before a command	--block 64 stats
unknown flag "--bogus" for warpscope stats (warpscope stats --help lists its flags)	stats --bogus
unknown flag "--frames" for warpscope stats: --frames is for warpscope render	stats --version v2 --frames x
unknown flag "--json" for warpscope capture: --json is for warpscope stats	capture --version v2 --json -o $tmp/x.json
unknown flag "--json" for warpscope list: --json is for	list --json
unexpected argument "extra"	list extra
--event is for warpscope render	view --event 3
unknown flag "--keys" for warpscope render: --keys is for warpscope view	render --version v2 --keys q -o $tmp/x.png
--seed needs a value	stats --version v2 --seed
-o needs a file name	capture --version v2 -o
two input files given	stats $tmp/ok.json $tmp/ok.json
give a trace file or --version, not both	stats $tmp/ok.json --version v2
stats needs a trace file or --version ID	stats
capture needs -o FILE	capture --version v2
capture needs --version	capture -o $tmp/x.json
render needs -o out.png or --frames DIR	render --version v2
give one of --event, --phase, --step	render --version v2 --event 1 --step 2 -o $tmp/x.png
perf takes one benchmark: capture, kernel, draw or export, not "nothing"	perf nothing
perf takes one benchmark: capture, kernel, draw or export	perf
# numbers: words, spaces, signs, fractions, out of range
--block expects a whole number	stats --version v2 --block lots
--block expects a whole number from 1 to 1024, got " 64"	stats --version v2 --block ' 64'
--block expects a whole number	stats --version v2 --block 64x
--block expects a whole number	stats --version v2 --block 99999999999999999999999
runs blocks of 32 to 1024 threads, a power of two; got 100	stats --version v2 --block 100
runs blocks of 64 to 1024	stats --version v4 --block 32
--n expects a whole number from 1	stats --version v2 --n 0
--n expects a whole number from 1	stats --version v2 --n -5
--n expects a whole number from 1	stats --version v2 --n 1e3
--n expects a whole number from 1 to 2147483648	stats --version v2 --n 2147483649
--seed expects a whole number from 0 to 18446744073709551615, got " -1"	stats --version v2 --seed ' -1'
--seed expects a whole number	stats --version v2 --seed -1
--seed expects a whole number	stats --version v2 --seed 18446744073709551616
--seed expects a whole number	stats --version v2 --seed=+3
--ept expects a whole number	stats --version v6 --ept 0
--ept applies to v6, v7 and v8	stats --version v2 --ept 4
needs --ept to be a multiple of 2	stats --version v6 --ept 5
--blocks-traced expects a whole number from 1 to 4294967295	stats --version v2 --blocks-traced 4294967296
--size expects WIDTHxHEIGHT	render --version v2 --size 10x10 -o $tmp/x.png
--size expects WIDTHxHEIGHT	render --version v2 --size 800x -o $tmp/x.png
--event expects a whole number	render --version v2 --event -1 -o $tmp/x.png
--phase expects a whole number	render --version v2 --phase abc -o $tmp/x.png
--step expects a whole number	render --version v2 --step 1.5 -o $tmp/x.png
--phase 99: the trace has phases 0 to	render --version v2 --phase 99 -o $tmp/x.png
# names
unknown version "v99"	stats --version v99
unknown version "vv2"; did you mean "v2"?	stats --version vv2
--compare: unknown version "v99"	render --version v2 --compare v99 -o $tmp/x.png
action "card:bogus": unknown card; the cards are gtx1050ti	render --version v2 --actions grid,card:bogus -o $tmp/x.png
unknown card "gtx1070"; the cards are gtx1050ti	stats --version v2 --card gtx1070
unknown data pattern "zeros"	stats --version v2 --data zeros
--backend must be auto, cpu or gpu	stats --version v2 --backend fpga
--theme must be light or dark, got "blue"	render --version v2 --theme blue -o $tmp/x.png
# inputs: missing, a folder, a device, empty, malformed, hostile
$tmp/none.json: cannot open	stats $tmp/none.json
$tmp/folder.json: is a folder	stats $tmp/folder.json
/dev/zero: is a device, not a regular file	stats /dev/zero
$tmp/nul.json:2:3: unexpected NUL byte	stats $tmp/nul.json
$tmp/empty.json:1:1: JSON syntax error	stats $tmp/empty.json
$tmp/bad.json:3:17: JSON syntax error	stats $tmp/bad.json
$tmp/deep.json:1:513: JSON syntax error: nesting deeper than 512 levels	stats $tmp/deep.json
schema: expected "warpscope-trace"	stats $tmp/schema.json
schema_version: this warpscope reads versions 1 to $schema, the file is version 99	stats $tmp/version.json
events[0].w: warp 40 is outside a block of 64 threads	stats $tmp/warp.json
events[0].ph: expected an integer from 0 to 4095	render $tmp/phase.json -o $tmp/x.png
events[0].b: block 3 is not one of the 1 traced blocks of pass 0	stats $tmp/block.json
expected a shared-memory word	render $tmp/bank.json -o $tmp/x.png
result: expected a finite float	stats $tmp/result.json
$tmp/garbage.wstrace:	stats $tmp/garbage.wstrace
$tmp/cut.wstrace:	stats $tmp/cut.wstrace
rows[0].n: expected a number from 1 to	render --bench $tmp/n.json -o $tmp/x.png
rows[0].ms: expected a number from 0 to	render --bench $tmp/ms.json -o $tmp/x.png
$tmp/none.json: cannot open	render --bench $tmp/none.json -o $tmp/x.png
# a kernel of one's own on the GPU: verify takes the file or the ladder's versions, not both; the
# emulator's switches do not reach the GPU
give a trace file or --kernel, not both	stats $tmp/ok.json --kernel x.cu --entry 'k<<<1, 32>>>(in, out)'
give --kernel or --versions and --blocks, not both	verify --kernel x.cu --entry 'k<<<1, 32>>>(in, out)' --versions v1
the GPU keeps its own order (use --backend cpu)	capture --backend gpu --kernel x.cu --entry 'k<<<1, 32>>>(in, out)' --schedule its:1 -o $tmp/k.json
# break-it switches: a line without a barrier, a bad schedule, a schedule on the GPU
no __syncthreads() runs at line 26 of kernels/v2.cu	hazards --version v2 --drop-barrier 26
no __syncwarp() runs at line 25 of kernels/v4s.cu	capture --version v4s --drop-syncwarp 25 -o $tmp/d.json
no __syncthreads() runs at line 36 of kernels/v4s.cu	stats --version v4s --drop-barrier 36
--drop-barrier expects a whole number	hazards --version v2 --drop-barrier x
--schedule its needs a seed	hazards --version v4 --schedule its
--schedule must be lockstep, its:SEED	stats --version v4 --schedule random
--warp-order must be in-order, reversed or seeded:SEED	hazards --version v2 --warp-order backwards
use --backend cpu	capture --version v4 --schedule its:1 --backend gpu -o $tmp/g.json
hazards needs --version	hazards
# the block shown: a pass or block that is not there, or was not traced
--pass 2: the trace has 2 passes (0 to 1)	stats --version v2 --n 2^12 --pass 2
--pass 1: the trace has 1 pass (0)	stats --version v2 --pass 1
--block-index 16: pass 0 has blocks 0 to 15	stats --version v2 --n 2^12 --block-index 16
unknown flag "--pass" for warpscope capture: --pass is for warpscope view	capture --version v2 --pass 1 -o $tmp/p.json
no events of block 3 of pass 0	stats $tmp/one.wstrace --block-index 3
$tmp/cut2.wstrace: provenance.backend	stats $tmp/cut2.wstrace
no WSTRACE header	stats $tmp/junk.wstrace
# outputs: a missing folder, a folder, a file where a folder must be, the input itself
no such folder	capture --version v2 -o $tmp/no/such/dir/x.json
$tmp/folder.json: is a folder, not a file	capture --version v2 -o $tmp/folder.json
names a folder, not a file	render --version v2 -o $tmp/newdir/
the output would overwrite the input	render $tmp/ok.json -o $tmp/ok.json
the output would overwrite the input	render --bench $tmp/n.json -o $tmp/n.json
$tmp/plain/step-0000.png: cannot open for writing	render --version v2 --frames $tmp/plain
EOF_TABLE

# environment: a theme with a non-hex colour, no fonts, a date past year 9999 or not a number
env_case() { # env_case "wanted text" VAR=value args...
    want="$1"; shift
    cases=$((cases + 1))
    env "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne 2 ] || ! grep -qF -- "$want" "$tmp/err" || [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
        echo "FAIL: $* -> exit $rc: $(head -c 400 "$tmp/err") (wanted exit 2 and one line with: $want)"
        fail=1
    fi
}
env_case 'light.json: working: expected a colour "#RRGGBB"' WARPSCOPE_ASSETS="$tmp/assets" "$ws" render --version v2 -o "$tmp/x.png"
mkdir -p "$tmp/nofonts/themes" && cp "$(dirname "$0")/../assets/themes/"*.json "$tmp/nofonts/themes/"
env_case 'DejaVuSansMono.ttf: font not found' WARPSCOPE_ASSETS="$tmp/nofonts" "$ws" render --version v2 -o "$tmp/x.png"
# the data folder: WARPSCOPE_DATA names one without assets, or without lessons
mkdir -p "$tmp/data-no-lessons/assets"
env_case "$tmp/nodata/assets: no such folder (warpscope's assets); check WARPSCOPE_DATA" WARPSCOPE_DATA="$tmp/nodata" "$ws" render --version v2 -o "$tmp/x.png"
env_case "$tmp/data-no-lessons/lessons: no such folder (warpscope's lessons); check WARPSCOPE_DATA" WARPSCOPE_DATA="$tmp/data-no-lessons" "$ws" lesson list
env_case 'SOURCE_DATE_EPOCH must be whole seconds since 1970' SOURCE_DATE_EPOCH=99999999999999999999 "$ws" stats --version v2
env_case 'SOURCE_DATE_EPOCH must be whole seconds since 1970' SOURCE_DATE_EPOCH=253402300800 "$ws" capture --version v2 -o "$tmp/x.json"
env_case 'SOURCE_DATE_EPOCH must be whole seconds since 1970' SOURCE_DATE_EPOCH=-1 "$ws" stats --version v2

# out of memory is said as such, not as a syntax error: with less address space than a 7 MB trace
# needs (not under ASan, which reserves terabytes of address space up front)
if [ -z "$WS_SANITIZE" ]; then
    cases=$((cases + 1))
    "$ws" capture --version v0 --block 1024 --blocks-traced 64 --n 1048576 -o "$tmp/big.json" 2>/dev/null
    said=""
    for kb in 16000 24000 32000 40000 48000 56000 64000 72000; do
        (ulimit -v $kb; "$ws" stats "$tmp/big.json" >/dev/null 2>"$tmp/err")
        grep -q "error while loading shared libraries\|cannot allocate\|failed to map" "$tmp/err" && continue
        said=$(cat "$tmp/err"); break
    done
    case "$said" in
        *"out of memory"*) ;;
        *) echo "FAIL: stats with too little memory said: $said (wanted \"out of memory\")"; fail=1 ;;
    esac
fi

# ---- writes ----
[ -e "$tmp/d.json" ] && { echo "FAIL: a rejected drop left a file"; fail=1; }
# a capture the user already has is not replaced by a failed one
"$ws" capture --version v2 --block 100 -o "$tmp/keep.json" 2>/dev/null
grep -q keep "$tmp/keep.json" || { echo "FAIL: a failed capture overwrote the output file"; fail=1; }
# the old fixed temporary name is never touched, nor followed when it is a symlink
echo other >"$tmp/victim"
ln -s "$tmp/victim" "$tmp/out.json.tmp"
echo unrelated >"$tmp/out.json.tmp2"
"$ws" capture --version v2 -o "$tmp/out.json" 2>/dev/null || { echo "FAIL: capture beside a symlinked X.tmp"; fail=1; }
[ "$(cat "$tmp/victim")" = other ] && [ -L "$tmp/out.json.tmp" ] && [ "$(cat "$tmp/out.json.tmp2")" = unrelated ] ||
    { echo "FAIL: capture -o X touched X.tmp or what it points to"; fail=1; }
# an interrupted capture leaves neither the output nor a temporary file (TERM: a background job of
# a script ignores INT, as POSIX shells start them)
"$ws" capture --version v0 --block 1024 --n 33554432 -o "$tmp/long.json" 2>/dev/null &
pid=$!
sleep 1
kill -TERM $pid 2>/dev/null
sleep 0.2
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
ls -a "$tmp" | grep -q "long.json" && { echo "FAIL: an interrupted capture left $(ls -a "$tmp" | grep long.json)"; fail=1; }
# no failed write above left a temporary file behind
ls -a "$tmp" | grep -q '^\..*\.[A-Za-z0-9]\{6\}$' && { echo "FAIL: temporary files left: $(ls -a "$tmp" | grep '^\.')"; fail=1; }
# and good input works
"$ws" capture --version v2 -o "$tmp/good.json" 2>/dev/null && "$ws" stats "$tmp/good.json" >/dev/null || { echo "FAIL: capture then stats"; fail=1; }
[ $fail -eq 0 ] && echo "cli_should_reject_bad_input: ok ($cases bad command lines, each exit 2 and one line)"
exit $fail
