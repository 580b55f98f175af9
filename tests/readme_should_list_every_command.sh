#!/bin/sh
# The README's list of commands is the command table's: the lines between the two markers of
# the "Commands" section of docs/reference.md (which README.md links) must be exactly what `warpscope help --markdown` prints (from
# app/commands.c). When a command is added or its synopsis changes, paste the new output there.
ws="$1"
readme="$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$ws" help --markdown >"$tmp/table" || { echo "FAIL: warpscope help --markdown exited $?"; exit 1; }
[ -s "$tmp/table" ] || { echo "FAIL: warpscope help --markdown printed nothing"; exit 1; }
awk '/^<!-- end of commands -->/ { on = 0 } on { print } /^<!-- commands: / { on = 1; seen = 1 } END { if (!seen) exit 1 }' "$readme" >"$tmp/readme" ||
    { echo "FAIL: $readme has no \"<!-- commands: ...\" marker line"; exit 1; }
if ! diff -u "$tmp/readme" "$tmp/table" >"$tmp/diff"; then
    echo "FAIL: README.md's list of commands differs from the command table (- README, + warpscope help --markdown):"
    cat "$tmp/diff"
    exit 1
fi
echo "readme_should_list_every_command: ok ($(wc -l <"$tmp/table") commands)"
