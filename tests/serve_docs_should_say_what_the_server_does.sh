#!/bin/sh
# docs/lab.md and docs/classroom.md say what warpscope serve does: every route of serve.c's table is
# in docs/lab.md's table as METHOD PATH; the limits table of docs/classroom.md holds each limit as
# serve.h sets it (requests per student and per address, joins per address and per class and their
# window, connections, the run limit); the shipped nginx config passes the browser's Host with its
# port ($http_host) and X-Forwarded-Proto; the systemd unit's journalctl line greps words serve prints;
# the counts one in the record for every instance, and the judgements kept (api.c: VERDICTS_KEPT);
# no doc opens /class with ?token=; no doc names a folder of the machine it was written on.
src="$1"
fails=0
say() { echo "FAIL: $*"; fails=$((fails + 1)); }
lab="$src/docs/lab.md"
room="$src/docs/classroom.md"
routes=$(sed -n 's/^ *{"\(GET\|POST\)", "\(\/[^"]*\)", [01], [012], WHO_[A-Z]*, api_[a-z_]*},.*/\1 \2/p' "$src/app/serve/serve.c")
[ "$(echo "$routes" | wc -l)" -ge 10 ] || say "read $(echo "$routes" | wc -l) routes from serve.c's table"
echo "$routes" | while read -r m p; do
    grep -q "\`$m $p[\`?]" "$lab" || { echo "FAIL: docs/lab.md does not name \`$m $p\`"; echo x >>"$src/.docs-fail.$$"; }
done
[ -f "$src/.docs-fail.$$" ] && { fails=$((fails + $(wc -l <"$src/.docs-fail.$$"))); rm -f "$src/.docs-fail.$$"; }
num() { echo $(( $(sed -n "s/^ *$1 = \([0-9][0-9 <]*\),.*/\1/p" "$src/app/serve/serve.h") )); }
row() { grep "^| $1" "$room"; }
[ -n "$(num SERVE_STUDENT_RATE)" ] || say "serve.h has no SERVE_STUDENT_RATE"
row "one student's requests" | grep -q "| $(num SERVE_STUDENT_RATE) a minute |" || say "classroom.md: one student's requests are not $(num SERVE_STUDENT_RATE) a minute"
row "requests without a session" | grep -q "| $(num SERVE_CLIENT_RATE) a minute" || say "classroom.md: requests per address are not $(num SERVE_CLIENT_RATE) a minute"
row "joins, per address" | grep -q "| $(num SERVE_JOINS_PER_ADDRESS) / $(num SERVE_JOINS_PER_CLASS) in $(( $(num SERVE_JOIN_WINDOW_S) / 60 )) minutes |" ||
    say "classroom.md: joins are not $(num SERVE_JOINS_PER_ADDRESS) / $(num SERVE_JOINS_PER_CLASS) in $(( $(num SERVE_JOIN_WINDOW_S) / 60 )) minutes"
row "new sources kept" | grep -q "| $(( $(num SERVE_SOURCE_BYTES_STUDENT) >> 20 )) MiB / $(( $(num SERVE_SOURCE_BYTES_CLASS) >> 20 )) MiB an hour" || say "classroom.md: the sources' quota"
row "connections" | grep -q "| $(num SERVE_CONNECTIONS) at once, $(num SERVE_CONNECTIONS_PER_IP) from one address |" || say "classroom.md: connections are not $(num SERVE_CONNECTIONS) / $(num SERVE_CONNECTIONS_PER_IP)"
row "a build / a run" | grep -q "default $(num SERVE_RUN_LIMIT_S) s" || say "classroom.md: the run limit is not $(num SERVE_RUN_LIMIT_S) s"
flat=$(tr '\n' ' ' <"$lab")
echo "$flat" | grep -q "$(num SERVE_JOINS_PER_ADDRESS) joins per address and $(num SERVE_JOINS_PER_CLASS) per class in $(( $(num SERVE_JOIN_WINDOW_S) / 60 )) minutes" || say "docs/lab.md: the joins' bounds"
echo "$flat" | grep -q "and $(num SERVE_STUDENT_RATE) requests a minute per student, $(num SERVE_CLIENT_RATE) requests" || say "docs/lab.md: the requests' rates"
echo "$flat" | grep -q "$(num SERVE_CONNECTIONS) connections, $(num SERVE_CONNECTIONS_PER_IP) from one address" || say "docs/lab.md: the connections"
nginx="$src/docs/nginx-warpscope.conf"
grep -q '^ *proxy_set_header Host \$http_host;' "$nginx" || say "the nginx config does not pass Host \$http_host (the port is dropped: every POST on another port is 403)"
grep -q '^ *proxy_set_header X-Forwarded-Proto \$scheme;' "$nginx" || say "the nginx config does not pass X-Forwarded-Proto"
unit="$src/packaging/warpscope-serve.service.in"
words=$(sed -n 's/.*journalctl -u warpscope-serve -o cat | grep "\([^"]*\)".*/\1/p' "$unit")
[ -n "$words" ] && grep -q "printf(\".*$words" "$src/app/serve/serve.c" || say "the unit's journalctl line greps \"$words\", which serve does not print"
# what limits a student is counted in the record for every instance (serve.c: record_count), as classroom.md says
grep -q "record_count(" "$src/app/serve/serve.c" && ! grep -qi "keeps its own count\|only on the same instance" "$room" &&
    tr '\n' ' ' <"$room" | grep -q "one count in the record for all the instances" ||
    say "classroom.md does not say that a student's counts are one in the record for all the instances"
echo "$flat" | grep -qi "per instance\|each instance's own" && say "docs/lab.md says a limit is per instance"
tr "\n" " " <"$room" | grep -q "the last $(sed -n 's/.*VERDICTS_KEPT = \([0-9]*\).*/\1/p' "$src/app/serve/api.c")," || say "classroom.md: the judgements kept are not api.c's VERDICTS_KEPT"
# the docs name what is in the repository or on the reader's machine, never a folder of the machine they were written on
grep -nE '(^|[^a-z])/(work|home/[a-z]+)/' "$src"/docs/*.md "$src/README.md" && say "a doc names a path of the machine it was written on"
grep -n 'class?token' "$lab" "$room" "$nginx" "$unit" && say "a doc opens /class with ?token= (the token is typed into its form)"
[ "$fails" = 0 ] || { echo "serve_docs_should_say_what_the_server_does: $fails failed"; exit 1; }
echo "serve_docs_should_say_what_the_server_does: passed ($(echo "$routes" | wc -l) routes)"
