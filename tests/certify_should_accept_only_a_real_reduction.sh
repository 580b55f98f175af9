#!/bin/sh
# Makes the traces of three right kernels of one's own (exercises 02, 07 and 08's model solutions,
# every block traced, at sizes that are not a block's multiple) and hands them to the C test, which
# verifies them and refuses each forgery of them (certify_should_accept_only_a_real_reduction.c).
ws="$1"
probe="$2"
root="$3"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache"
entry() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["exercise"]["entry"])' "$root/lessons/exercises/$1.json"; }
for c in 02-v1-padding:3000 07-shuffles:5000 08-last-block:2900; do
    ex=${c%%:*}; n=${c#*:}
    "$ws" capture --kernel "$root/tests/exercises/$ex.solution.cu" --entry "$(entry "$ex")" --n "$n" --seed 11 --blocks-traced 100000 \
        -o "$tmp/$ex.wstrace" >/dev/null 2>"$tmp/err" || { echo "FAIL: capture of $ex:"; cat "$tmp/err"; exit 1; }
done
"$probe" "$tmp"/*.wstrace
