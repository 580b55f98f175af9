#!/bin/sh
# --schedule adversarial on a kernel of one's own runs its orders in a child of the one sandboxed
# run (the file loaded once, its globals put back before each order; where that cannot be, a child
# per order), which hands its findings back through a descriptor of the run's. What the host code
# does with descriptors it did not open (here: closes 3 to 63 once its kernel has run) must not
# change what the search finds: the barrier left out, with and without that host code, keeps the
# same order and the same result, and a search that kept an order says so (a trace labelled
# "none changed the result" has lockstep's result); host code that blocks where the result is written
# gets an error, not a label.
. "$(dirname "$0")/own_test_setup.sh"
"$ws" --version | grep -q "^sandbox for a learner's file: bubblewrap" || { echo "SKIP: no bubblewrap sandbox here"; exit 77; }

# prints "SCHEDULE|RESULT" of a capture
show() { python3 -c 'import json, sys; t = json.load(open(sys.argv[1])); print("%s|%g" % (t["provenance"]["schedule"], float(t["result"])))' "$1"; }
{ echo '#include <unistd.h>'; cat "$own/barrier_left_out.cu"; echo 'void run(float *in, float *out) { k<<<1, 256>>>(in, out); }'; } >"$tmp/plain.cu"
{ echo '#include <unistd.h>'; cat "$own/barrier_left_out.cu"
  echo 'void run(float *in, float *out) { k<<<1, 256>>>(in, out); for (int fd = 3; fd < 64; fd++) close(fd); }'; } >"$tmp/closes.cu"
for f in plain closes; do
    for s in lockstep adversarial; do
        "$ws" capture --kernel "$tmp/$f.cu" --entry 'run(in, out)' --n 256 --data ones --schedule $s -o "$tmp/$f.$s.json" >/dev/null 2>&1
        eval "${f}_$s=\$(show \"\$tmp/\$f.\$s.json\")"
    done
done
case "$plain_adversarial" in "adversarial: "*", warps "*) ;; *) echo "FAIL: the racing kernel's search names no order: '$plain_adversarial'"; fail=1 ;; esac
[ "$closes_adversarial" = "$plain_adversarial" ] ||
    { echo "FAIL: host code that closes descriptors changed the search: '$closes_adversarial', without it '$plain_adversarial'"; fail=1; }
for f in plain closes; do
    eval "a=\$${f}_adversarial l=\$${f}_lockstep"
    case "$a" in "adversarial: none changed the result|"*) [ "${a#*|}" = "${l#*|}" ] ||
        { echo "FAIL: $f.cu: labelled 'none changed the result' with result ${a#*|}, lockstep's ${l#*|}"; fail=1; } ;; esac
done
# host code that takes the place where the search's progress is written (a folder of that name,
# the name of the per-order search's file) or writes into every descriptor it finds: the search is
# not blocked, and finds the order that breaks the sum as without it; or, where the file's run
# fails (its writes reach a pipe) or the search cannot learn an order's result, says so (exit 2)
# rather than label a trace
{ echo '#include <sys/stat.h>'; cat "$own/barrier_left_out.cu"
  echo 'void run(float *in, float *out) { mkdir("order.result", 0700); k<<<1, 256>>>(in, out); }'; } >"$tmp/blocks.cu"
{ echo '#include <unistd.h>'; cat "$own/barrier_left_out.cu"
  echo 'void run(float *in, float *out) { k<<<1, 256>>>(in, out); for (int fd = 3; fd < 256; fd++) if (write(fd, "xxxxxxxxxxxxxxxx", 16) < 0) {} }'; } >"$tmp/scribbles.cu"
for f in blocks scribbles; do
    "$ws" capture --kernel "$tmp/$f.cu" --entry 'run(in, out)' --n 256 --data ones --schedule adversarial -o "$tmp/$f.json" \
        >"$tmp/$f.out" 2>&1
    rc=$?
    if [ $rc -eq 2 ]; then # its run fails (writing into a pipe it found, say) or the search was blocked: said, and no trace
        grep -q "$f.cu" "$tmp/$f.out" && [ ! -e "$tmp/$f.json" ] ||
            { echo "FAIL: $f.cu: exit 2 without a trace or a word of why: $(cat "$tmp/$f.out")"; fail=1; }
    else
        [ -e "$tmp/$f.json" ] && [ "$(show "$tmp/$f.json")" = "$plain_adversarial" ] ||
            { echo "FAIL: $f.cu: exit $rc, the search kept '$(show "$tmp/$f.json" 2>/dev/null)', without it '$plain_adversarial': $(cat "$tmp/$f.out")"; fail=1; }
    fi
done

[ $fail -eq 0 ] && echo "ok: the search finds '$plain_adversarial' whatever the host code does with its descriptors"
exit $fail
