#!/bin/sh
# The fuzz targets' short run (CI) or long run: each target from its seed corpus (copied, so the
# repository's corpus is not changed) for SECONDS seconds, or RUNS executions when RUNS is set.
# Exit 77 (skipped) when the libFuzzer build is not there (no clang, or WS_FUZZ off).
#   run.sh FUZZ_BUILD_DIR [SECONDS]        RUNS=1000000 run.sh FUZZ_BUILD_DIR
dir="$1"; secs="${2:-10}"
here=$(cd "$(dirname "$0")" && pwd)
targets="trace_json trace_bin results theme load_analyse lesson"
for t in $targets; do
    [ -x "$dir/fuzz_$t" ] || { echo "fuzz: $dir/fuzz_$t not built (configure with -DWS_FUZZ=ON and clang); skipped"; exit 77; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
for t in $targets; do
    mkdir -p "$work/$t" "$work/$t-crash"
    cp "$here/corpus/$t/"* "$work/$t/" 2>/dev/null
    if [ -n "$RUNS" ]; then limit="-runs=$RUNS"; else limit="-max_total_time=$secs"; fi
    # inputs up to 64 KB (a small capture); 10 s per input is a hang; 2 GB is a leak or a blow-up
    "$dir/fuzz_$t" $limit -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$work/$t-crash/" "$work/$t" >"$work/$t.log" 2>&1
    rc=$?
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/$t.log" | grep -o '[0-9]*$')
    secs_run=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$work/$t.log" | grep -o 'in [0-9]*' | grep -o '[0-9]*')
    echo "fuzz_$t: exit $rc, ${execs:-?} executions in ${secs_run:-?} s, corpus $(ls "$work/$t" | wc -l) inputs"
    if [ $rc -ne 0 ]; then
        fail=1
        tail -40 "$work/$t.log"
        mkdir -p "${FUZZ_KEEP:-$here/../../build/fuzz-crashes}/$t"
        cp "$work/$t-crash/"* "${FUZZ_KEEP:-$here/../../build/fuzz-crashes}/$t/" 2>/dev/null
    fi
done
exit $fail
