#!/bin/sh
# `warpscope --version` names the commit a git checkout is at even where git is not installed (or
# refuses the folder): app/version.cmake reads .git/HEAD and follows its ref to refs/ or
# packed-refs, or a worktree's .git file to its folder. Checked against checkouts laid out by hand,
# as git's documentation (gitrepository-layout) describes them, with no git program and with one
# that fails; and this source's own checkout against `git rev-parse` where git is here.
cmake="$1"
src="$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
a=0123456789abcdef0123456789abcdef01234567
b=89abcdef0123456789abcdef0123456789abcdef
c=fedcba9876543210fedcba9876543210fedcba98
commit() { # SRC GIT: the commit version.cmake writes
    rm -f "$tmp/v.c"
    "$cmake" -DOUT="$tmp/v.c" -DSRC="$1" -DGIT="$2" -DVERSION=0.0.0 -DCUDA=0 -P "$src/app/version.cmake" >/dev/null 2>&1
    sed -n 's/^const char ws_commit\[\] = "\(.*\)";$/\1/p' "$tmp/v.c"
}
expect() { # what, SRC, the commit wanted
    for g in "" /nonexistent/git; do
        got=$(commit "$2" "$g")
        [ "$got" = "$3" ] || { echo "FAIL: $1 (GIT=\"$g\"): \"$got\", expected \"$3\""; fail=1; }
    done
}
# a branch whose ref is a file
mkdir -p "$tmp/loose/.git/refs/heads"
echo "ref: refs/heads/main" >"$tmp/loose/.git/HEAD"
echo "$a" >"$tmp/loose/.git/refs/heads/main"
expect "a branch in refs/heads" "$tmp/loose" 0123456
# a branch packed (git gc, a fresh clone): a line of packed-refs, among others and a peeled tag
mkdir -p "$tmp/packed/.git/refs/heads"
echo "ref: refs/heads/topic/x" >"$tmp/packed/.git/HEAD"
printf '# pack-refs with: peeled fully-peeled sorted \n%s refs/heads/main\n%s refs/heads/topic/x\n%s refs/tags/v1\n^%s\n' "$a" "$b" "$c" "$a" \
    >"$tmp/packed/.git/packed-refs"
expect "a branch in packed-refs" "$tmp/packed" 89abcde
# a loose ref wins over a stale packed one (git writes the newer commit there)
mkdir -p "$tmp/packed/.git/refs/heads/topic"
echo "$c" >"$tmp/packed/.git/refs/heads/topic/x"
expect "a loose ref over a packed one" "$tmp/packed" fedcba9
# a detached HEAD holds the commit itself
mkdir -p "$tmp/detached/.git"
echo "$b" >"$tmp/detached/.git/HEAD"
expect "a detached HEAD" "$tmp/detached" 89abcde
# a worktree: .git is a file naming its folder, whose commondir holds the shared refs
mkdir -p "$tmp/main/.git/refs/heads" "$tmp/main/.git/worktrees/wt" "$tmp/wt"
echo "ref: refs/heads/main" >"$tmp/main/.git/HEAD"
echo "$a" >"$tmp/main/.git/refs/heads/main"
echo "$c" >"$tmp/main/.git/refs/heads/feature"
echo "gitdir: $tmp/main/.git/worktrees/wt" >"$tmp/wt/.git"
echo "ref: refs/heads/feature" >"$tmp/main/.git/worktrees/wt/HEAD"
echo "../.." >"$tmp/main/.git/worktrees/wt/commondir"
expect "a worktree" "$tmp/wt" fedcba9
# not a checkout, a ref that is nowhere, a HEAD that is not a commit: unknown
mkdir -p "$tmp/none" "$tmp/lost/.git" "$tmp/junk/.git"
echo "ref: refs/heads/gone" >"$tmp/lost/.git/HEAD"
echo 'x"; int evil; "' >"$tmp/junk/.git/HEAD"
expect "no checkout" "$tmp/none" unknown
expect "a ref that is nowhere" "$tmp/lost" unknown
expect "a HEAD that is not a commit" "$tmp/junk" unknown
# this source's own checkout, where git can say what it is at
if command -v git >/dev/null 2>&1 && [ -e "$src/.git" ] && want=$(git -C "$src" rev-parse --short=7 HEAD 2>/dev/null); then
    got=$(commit "$src" "")
    again=$(git -C "$src" rev-parse --short=7 HEAD 2>/dev/null) # someone may commit meanwhile
    [ "$got" = "$want" ] || [ "$got" = "$again" ] || { echo "FAIL: this checkout without git: \"$got\", git rev-parse says \"$want\""; fail=1; }
fi
[ $fail -eq 0 ] && echo "version_should_name_the_commit_without_git: ok"
exit $fail
