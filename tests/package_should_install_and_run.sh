#!/bin/sh
# Installed like a program: `cpack -G DEB` makes warpscope_<version>_<arch>.deb; apt resolves it
# (simulated); unpacked anywhere, the program holds no path of this source tree, finds its data
# beside itself (PREFIX/bin/../share/warpscope) with no environment variable, renders a PNG and
# lists the lessons from another folder; the man page and the completion are where Debian looks.
# Label package. Skipped (77) only where apt-get is missing (not a Debian-like system).
build="$1"
src="$2"
version="$3"
sanitized="$4" # 1: an AddressSanitizer build, whose instrumentation names its sources by full path
command -v apt-get >/dev/null 2>&1 || { echo "apt-get not installed: skipped"; exit 77; }
for t in cpack dpkg-deb; do
    command -v $t >/dev/null 2>&1 || { echo "FAIL: $t not installed (tools/setup-debian.sh installs dpkg-dev)"; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
say() { echo "FAIL: $*"; fail=1; }

# ---- the package, built in a scratch folder ----
(cd "$tmp" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1) ||
    { echo "FAIL: cpack:"; tail -n 30 "$tmp/cpack.log"; exit 1; }
arch=$(dpkg --print-architecture)
deb="$tmp/pkg/warpscope_${version}_${arch}.deb"
[ -f "$deb" ] || { echo "FAIL: no $deb; cpack made: $(ls "$tmp/pkg")"; exit 1; }

# what it depends on: the runtime libraries' Debian packages and a CJK font
dpkg-deb -f "$deb" Depends >"$tmp/depends"
for p in libsdl2-2.0-0 libsdl2-ttf-2.0-0 libsdl2-image-2.0-0 libcjson1 libgif7 libboost-context1.74.0 "fonts-wqy-microhei | fonts-noto-cjk"; do
    grep -qF -- "$p" "$tmp/depends" || say "Depends lacks $p: $(cat "$tmp/depends")"
done
grep -qi "cuda" "$tmp/depends" && say "Depends names a CUDA package (the runtime is linked statically): $(cat "$tmp/depends")"

# apt resolves it against this system's packages (a simulation: nothing is installed)
(cd "$tmp/pkg" && apt-get install -s "./$(basename "$deb")" >"$tmp/apt.log" 2>&1) ||
    { say "apt-get install -s does not resolve the package:"; tail -n 20 "$tmp/apt.log"; }

# ---- unpacked into a scratch prefix ----
dpkg-deb -x "$deb" "$tmp/root" || { echo "FAIL: dpkg-deb -x"; exit 1; }
exe="$tmp/root/usr/bin/warpscope"
[ -x "$exe" ] || { echo "FAIL: no usr/bin/warpscope in the package: $(dpkg-deb -c "$deb" | head -n 20)"; exit 1; }
for f in usr/share/warpscope/assets/fonts/DejaVuSansMono.ttf usr/share/warpscope/assets/fonts/LICENSE-DejaVu.txt \
         usr/share/warpscope/assets/themes/light.json usr/share/warpscope/assets/bench-h100.json \
         usr/share/warpscope/lessons/03-v1-bank-conflicts.json usr/share/man/man1/warpscope.1 \
         usr/share/bash-completion/completions/warpscope; do
    [ -f "$tmp/root/$f" ] || say "the package has no $f"
done
# no path of the source tree, in the program or any file of the package (a package is made from a
# plain build; a sanitizer's instrumentation keeps each source's full path in the program)
if [ "$sanitized" != 1 ] && grep -rlF -- "$src" "$tmp/root" >"$tmp/paths"; then
    say "the package holds the source path $src in: $(cat "$tmp/paths")"
fi
ldd "$exe" >"$tmp/ldd" 2>&1
grep -q "not found" "$tmp/ldd" && say "libraries not found: $(grep 'not found' "$tmp/ldd")"
grep -q "libcudart" "$tmp/ldd" && say "the CUDA runtime is linked dynamically: $(grep libcudart "$tmp/ldd")"

# ---- it runs from another folder with no environment telling it where its data is ----
mkdir "$tmp/elsewhere"
cd "$tmp/elsewhere" || exit 1
runit() { env -u WARPSCOPE_DATA -u WARPSCOPE_ASSETS XDG_STATE_HOME="$tmp/state" "$exe" "$@"; }
runit render --version v1 --block 64 -o x.png >"$tmp/out" 2>"$tmp/err" || say "render: exit $?: $(cat "$tmp/err")"
[ -s x.png ] && head -c 8 x.png | od -An -tx1 | grep -q "89 50 4e 47 0d 0a 1a 0a" || say "render wrote no PNG"
runit lesson list >"$tmp/lessons" 2>"$tmp/err" || say "lesson list: exit $?: $(cat "$tmp/err")"
n=$(ls "$tmp/root/usr/share/warpscope/lessons/"*.json | wc -l)
[ "$(grep -c ' new ' "$tmp/lessons")" -eq "$n" ] || say "lesson list shows $(grep -c ' new ' "$tmp/lessons") of $n lessons: $(cat "$tmp/lessons")"
runit --version | head -n 1 | grep -qx "warpscope $version" || say "--version: $(runit --version)"
# the man page the package carries is the program's own
runit help --man | cmp -s - "$tmp/root/usr/share/man/man1/warpscope.1" || say "usr/share/man/man1/warpscope.1 is not warpscope help --man"
# moved elsewhere (a prefix of its own), it still finds its data; a program without it says so
mkdir -p "$tmp/opt"
cp -a "$tmp/root/usr" "$tmp/opt/prefix"
env -u WARPSCOPE_DATA -u WARPSCOPE_ASSETS "$tmp/opt/prefix/bin/warpscope" render --version v2 --block 32 -o y.png 2>"$tmp/err" ||
    say "render from a moved prefix: $(cat "$tmp/err")"
cp "$exe" "$tmp/alone"
env -u WARPSCOPE_DATA -u WARPSCOPE_ASSETS "$tmp/alone" lesson list >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "cannot find warpscope's data" "$tmp/err" ||
    say "without its data: exit $rc: $(cat "$tmp/err") (wanted exit 2 and one line)"
WARPSCOPE_DATA="$tmp/root/usr/share/warpscope" XDG_STATE_HOME="$tmp/state" "$tmp/alone" lesson list >/dev/null 2>"$tmp/err" ||
    say "WARPSCOPE_DATA did not point it at its data: $(cat "$tmp/err")"
# the class server, where the build has it: its systemd unit runs the packaged program as the user
# the postinst makes, on /var/lib/warpscope, off until enabled (no symlink of its own); the page
if ! runit serve --state "$tmp/probe" --bind not-an-address 2>&1 | grep -q "built without the class server"; then
    unit=usr/lib/systemd/system/warpscope-serve.service
    dpkg-deb -c "$deb" >"$tmp/contents"
    grep -q " \./$unit\$" "$tmp/contents" || say "dpkg-deb -c does not list $unit"
    grep -qx 'ExecStart=/usr/bin/warpscope serve --state /var/lib/warpscope $WARPSCOPE_SERVE_ARGS' "$tmp/root/$unit" ||
        say "$unit does not run /usr/bin/warpscope serve --state /var/lib/warpscope: $(grep ExecStart "$tmp/root/$unit")"
    grep -qx "User=warpscope" "$tmp/root/$unit" || say "$unit does not run as the user warpscope"
    grep -q "wants/warpscope-serve" "$tmp/contents" && say "the package enables the unit"
    # the page it serves, where the build made one
    [ ! -f "$build/web/index.html" ] || [ -f "$tmp/root/usr/share/warpscope/web/index.html" ] ||
        say "the package has no usr/share/warpscope/web/index.html: the server would serve no page"
    dpkg-deb --ctrl-tarfile "$deb" | tar -xOf - ./postinst >"$tmp/postinst" 2>/dev/null
    grep -q "adduser --system --group" "$tmp/postinst" || say "the package's postinst makes no system user: $(head -c 300 "$tmp/postinst")"
fi
[ $fail -eq 0 ] && echo "package_should_install_and_run: ok ($(basename "$deb"), $(du -k "$deb" | cut -f1) KiB; Depends: $(cat "$tmp/depends"))"
exit $fail
