#!/bin/sh
# Help, the man page, the completion and the version come from the one command table: every
# command answers --help, -h and `help CMD` alike (bench, verify and the lesson subcommands too,
# which are implemented elsewhere), each flag its synopsis names is listed in its help, mistyped
# names get the nearest one, `--version` names the version, the commit and CUDA, the man page is
# roff that groff reads without a warning, and the bash completion completes commands, flags,
# version ids and subcommands.
ws="$1"
version="$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
say() { echo "FAIL: $*"; fail=1; }

# ---- every command of the table, from its README line ----
"$ws" help --markdown | sed -n 's/^- `warpscope \([^`]*\)`: .*/\1/p' >"$tmp/rows"
[ "$(wc -l <"$tmp/rows")" -ge 15 ] || say "help --markdown lists $(wc -l <"$tmp/rows") commands"
while read -r row; do
    set -- $row
    name="$1"
    case "$name" in lesson | perf | exercise) name="$1 $2"; shift ;; esac
    shift
    synopsis="$*"
    "$ws" $name --help >"$tmp/a" 2>"$tmp/ae" || say "warpscope $name --help exited $?: $(cat "$tmp/ae")"
    "$ws" $name -h >"$tmp/b" 2>&1 || say "warpscope $name -h exited $?"
    "$ws" help $name >"$tmp/c" 2>&1 || say "warpscope help $name exited $?"
    cmp -s "$tmp/a" "$tmp/b" && cmp -s "$tmp/a" "$tmp/c" || say "warpscope $name --help, -h and help $name differ"
    [ -s "$tmp/ae" ] && say "warpscope $name --help wrote to stderr: $(cat "$tmp/ae")"
    head -n 1 "$tmp/a" | grep -q "^usage: warpscope $name" || say "warpscope $name --help starts: $(head -n 1 "$tmp/a")"
    # every flag the synopsis names is one the help lists (as "  --flag" at the start of a line)
    for f in $(printf '%s\n' "$synopsis" | grep -o -- '-[-a-z]*[a-z]' | sort -u); do
        grep -q -- "^  $f\( \|$\)" "$tmp/a" || say "warpscope $name: the synopsis names $f, its help does not list it"
    done
done <"$tmp/rows"

# flags that live in other files: bench (bench_gpu.cu), verify (verify.c), lesson print
"$ws" bench --help >"$tmp/bench" || say "bench --help exited $?"
for f in --sizes --versions --modes --reps --batch --block --ept --device --json --csv; do
    grep -q -- "^  $f " "$tmp/bench" || say "bench --help does not list $f"
done
"$ws" verify -h | grep -q -- "^  --md FILE" || say "verify -h does not list --md"
"$ws" stats --version v2 --help | grep -q -- "^  --all-blocks" || say "stats --version v2 --help is not stats' help"
"$ws" help lesson >"$tmp/lesson" && grep -q "lesson print" "$tmp/lesson" && grep -q -- "--dir DIR" "$tmp/lesson" ||
    say "help lesson does not show its subcommands and their flags"
# a flag's value that reads --help is a value, not a request for help
"$ws" render --version v2 --actions --help -o "$tmp/x.png" >/dev/null 2>"$tmp/err" && say "render --actions --help was taken for help"

# ---- did you mean ----
want() { # want "text" args...: exit 2 and one line containing text
    w="$1"; shift
    "$ws" "$@" >/dev/null 2>"$tmp/err"; rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -qF -- "$w" "$tmp/err" ||
        say "warpscope $* -> exit $rc: $(cat "$tmp/err") (wanted exit 2, one line with: $w)"
}
want 'unknown command "sats"; did you mean "stats"?' sats
want 'unknown command "rendr"; did you mean "render"?' rendr
want 'did you mean "--block"?' stats --version v2 --blcok 64
want 'did you mean "--workers"?' capture --version v2 --work 2 -o "$tmp/x.json"
want 'did you mean "capture"?' perf captur
want 'did you mean "--versions"?' bench --version v2
want 'unknown flag "--md" for warpscope bench: --md is for warpscope verify' bench --md x.md

# ---- the version ----
"$ws" --version >"$tmp/v1" || say "--version exited $?"
"$ws" version >"$tmp/v2" || say "version exited $?"
cmp -s "$tmp/v1" "$tmp/v2" || say "--version and version differ"
[ "$(head -n 1 "$tmp/v1")" = "warpscope $version" ] || say "--version says \"$(head -n 1 "$tmp/v1")\", the project is $version"
grep -q '^commit [0-9a-f][0-9a-f]*\(-dirty\)\?$\|^commit unknown$' "$tmp/v1" || say "--version names no commit: $(cat "$tmp/v1")"
grep -q '^CUDA: \(in\|not in\) this build' "$tmp/v1" || say "--version does not say whether CUDA is in the build"

# ---- the man page ----
"$ws" help --man >"$tmp/warpscope.1" || say "help --man exited $?"
grep -q '^\.TH WARPSCOPE 1 ' "$tmp/warpscope.1" || say "the man page has no .TH line"
for s in NAME SYNOPSIS DESCRIPTION COMMANDS '"CAPTURE FLAGS"' ENVIRONMENT '"EXIT STATUS"'; do
    grep -q "^\.SH $s\$" "$tmp/warpscope.1" || say "the man page has no section $s"
done
while read -r row; do
    set -- $row
    case "$1" in lesson | perf | exercise) t="$1 $2" ;; *) t="$1" ;; esac
    grep -q "^\.SS \"warpscope $t\"" "$tmp/warpscope.1" || say "the man page has no entry for warpscope $t"
done <"$tmp/rows"
if command -v groff >/dev/null 2>&1; then
    groff -man -Tutf8 -ww -z "$tmp/warpscope.1" 2>"$tmp/groff" && [ ! -s "$tmp/groff" ] ||
        say "groff warns about the man page: $(head -n 5 "$tmp/groff")"
fi

# ---- the bash completion ----
"$ws" help --completion bash >"$tmp/warpscope.bash" || say "help --completion bash exited $?"
if command -v bash >/dev/null 2>&1; then
    bash -n "$tmp/warpscope.bash" || say "the completion script is not valid bash"
    complete_words() { # complete_words WORD...: what TAB offers after them (the last word is the one completed)
        bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _warpscope; printf "%s\n" "${COMPREPLY[@]}"' sh "$tmp/warpscope.bash" warpscope "$@"
    }
    complete_words st | grep -qx stats || say "completion: warpscope st<TAB> does not offer stats"
    complete_words lesson p | grep -qx print || say "completion: warpscope lesson p<TAB> does not offer print"
    complete_words stats --all | grep -qx -- --all-blocks || say "completion: stats --all<TAB> does not offer --all-blocks"
    complete_words bench --c | grep -qx -- --csv || say "completion: bench --c<TAB> does not offer --csv"
    complete_words stats --version v | grep -qx v4s || say "completion: stats --version v<TAB> does not offer v4s"
    complete_words render --theme "" | grep -qx dark || say "completion: render --theme <TAB> does not offer dark"
    complete_words bench --versions v1,v | grep -qx v1,v2 || say "completion: bench --versions v1,v<TAB> does not offer v1,v2"
    : >"$tmp/trace-here.json"
    (cd "$tmp" && complete_words stats trace-) | grep -q "trace-here.json" || say "completion: stats FILE<TAB> does not complete file names"
fi
[ $fail -eq 0 ] && echo "cli_help_should_come_from_the_command_table: ok ($(wc -l <"$tmp/rows") commands)"
exit $fail
