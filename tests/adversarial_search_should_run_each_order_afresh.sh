#!/bin/sh
# --schedule adversarial on a kernel of one's own: the search runs inside the file's one sandboxed
# run, each order in a process of its own, so what one order's run leaves behind (a static count in
# the host code) never reaches the next. A right kernel's search keeps lockstep's answer (256 ones
# sum to 256) and says none changed it; a racing one (the barrier left out) keeps the first order
# whose result differs from lockstep's, and that order, asked for by name, gives the same result.
. "$(dirname "$0")/own_test_setup.sh"

# prints "SCHEDULE|RESULT" of a capture
show() { python3 -c 'import json, sys; t = json.load(open(sys.argv[1])); print("%s|%g" % (t["provenance"]["schedule"], float(t["result"])))' "$1"; }

# one block's tree sum, with host code that answers n / 2 the second time it runs in a process (a
# static count of its calls): every order must see n
{ cat "$own/one_block_sum.cu"
  printf '%s\n' 'static int calls = 0;' 'void run(const float *in, float *out, unsigned n)' \
      '{ calls++; k<<<1, 256>>>(in, out, calls == 1 ? n : n / 2); }'; } >"$tmp/answers_once_per_process.cu"
"$ws" capture --kernel "$tmp/answers_once_per_process.cu" --entry 'run(in, out, n)' --n 256 --data ones --schedule adversarial \
    -o "$tmp/once.json" >/dev/null 2>"$tmp/err" || { echo "FAIL: the adversarial capture of a right kernel"; cat "$tmp/err"; fail=1; }
got=$(show "$tmp/once.json")
[ "$got" = "adversarial: none changed the result|256" ] ||
    { echo "FAIL: a right kernel whose host code counts its calls: '$got', want 'adversarial: none changed the result|256'"; fail=1; }

# the barrier left out: lockstep's result, then the search's, then the order it names
k="$own/barrier_left_out.cu"
e='k<<<1, 256>>>(in, out)'
"$ws" capture --kernel "$k" --entry "$e" --n 256 --data ones -o "$tmp/lock.json" >/dev/null 2>&1
"$ws" capture --kernel "$k" --entry "$e" --n 256 --data ones --schedule adversarial -o "$tmp/adv.json" >/dev/null 2>&1
lock=$(show "$tmp/lock.json")
adv=$(show "$tmp/adv.json")
case "$adv" in
"adversarial: "*", warps "*) ;;
*) echo "FAIL: the racing kernel's search names no order: '$adv'"; fail=1 ;;
esac
[ "${adv#*|}" != "${lock#*|}" ] || { echo "FAIL: the search kept a result lockstep gives too: '$adv' beside '$lock'"; fail=1; }
order=${adv#adversarial: }
order=${order%%|*}
lanes=${order%%, warps *}
warps=${order##*, warps }
"$ws" capture --kernel "$k" --entry "$e" --n 256 --data ones --schedule "$lanes" --warp-order "$warps" -o "$tmp/named.json" >/dev/null 2>&1
named=$(show "$tmp/named.json")
[ "${named#*|}" = "${adv#*|}" ] || { echo "FAIL: the order the search named ($lanes, warps $warps) gives '$named', the search kept '$adv'"; fail=1; }

[ $fail -eq 0 ] && echo "ok: each order of the search runs afresh; the order kept is the one named ($lanes, warps $warps: ${adv#*|}, lockstep ${lock#*|})"
exit $fail
