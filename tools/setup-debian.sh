#!/bin/sh
# Installs the Debian 12 packages warpscope builds and runs with. As root it installs them; as
# another user it uses sudo when there is one, and otherwise says what to run as root.
set -e
# fonts-wqy-microhei: one font with Latin and Simplified Chinese glyphs (SDL2_ttf has no fallback)
# libgif-dev: warpscope export's GIFs. ffmpeg (MP4, WebM export) is optional and not installed here.
# clang and libclang-rt-14-dev: the libFuzzer targets (WS_FUZZ)
# dpkg-dev: dpkg-shlibdeps, which names the Debian package's Depends (cpack -G DEB, the package test);
# file: dpkg-shlibdeps asks it which files are programs (a minbase Debian has none, and cpack fails)
# bubblewrap and libseccomp-dev: the sandbox a learner's file is built and run in (bwrap where user
# namespaces are; seccomp's filter in warpscope-run)
# nginx: the class server's test runs two instances behind it (docs/nginx-warpscope.conf), with an
# nginx of its own in a temporary folder (where systemd runs, Debian's package also starts its
# default site on port 80: `systemctl disable --now nginx` stops it)
# The page (web/): clang's wasm32 target with lld, wasi-libc and its compiler runtime; cJSON's own
# source, from Debian's source package, compiled for the page as the desktop links Debian's libcjson;
# chromium, node and npm (Debian's nodejs and npm where neither program is there: a nodejs that
# brings its own npm conflicts with Debian's) and npm's puppeteer-core and axe-core for the browser tests; the
# page's kernel editor (web/editor/: CodeMirror and esbuild, at its lock file's versions).
# libmicrohttpd-dev, libsqlite3-dev and libpq-dev: warpscope serve, the class server (HTTP, the class
# record in SQLite, or in PostgreSQL); libcjose-dev, libcurl4-openssl-dev, libssl-dev: serve as an LTI 1.3 tool;
# python3-jwt, python3-cryptography: the LTI tests' platform
pkgs="build-essential cmake pkg-config python3 libcjson-dev libboost-context-dev libsdl2-dev libsdl2-ttf-dev libsdl2-image-dev libgif-dev xvfb xauth fonts-wqy-microhei clang libclang-14-dev libclang-rt-14-dev dpkg-dev file bubblewrap libseccomp-dev lld wasi-libc libclang-rt-14-dev-wasm32 chromium nginx libmicrohttpd-dev libsqlite3-dev libpq-dev libcjose-dev libcurl4-openssl-dev libssl-dev python3-jwt python3-cryptography"
cjson_src=/usr/local/src/warpscope/cjson
here="$(cd "$(dirname "$0")/.." && pwd)"
missing=""
for p in $pkgs; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
need_cjson=0
[ -f "$cjson_src/cJSON.c" ] || need_cjson=1
need_npm=0
[ -f "$here/tests/web/node_modules/puppeteer-core/package.json" ] || need_npm=1
[ -f "$here/tests/web/node_modules/axe-core/axe.min.js" ] || need_npm=1
[ -f "$here/web/editor/node_modules/@codemirror/view/package.json" ] || need_npm=1
[ -z "$missing" ] && [ $need_cjson -eq 0 ] && [ $need_npm -eq 0 ] && exit 0
run=""
if [ -n "$missing" ] || [ $need_cjson -eq 1 ]; then # what needs root: packages, and cJSON's source in /usr/local/src
    if [ "$(id -u)" -eq 0 ]; then
        run=""
    elif command -v sudo >/dev/null 2>&1; then
        run="sudo"
    else
        [ -n "$missing" ] && echo "setup-debian.sh: missing packages:$missing" >&2
        [ $need_cjson -eq 1 ] && echo "setup-debian.sh: missing cJSON's source in $cjson_src (for the page; Debian's source package of libcjson-dev)" >&2
        echo "setup-debian.sh: run this script as root (there is no sudo here)" >&2
        exit 2
    fi
fi
if [ -n "$missing" ]; then
    # a few lines of what comes, apt's and dpkg's thousands to a log; a failure shows its end
    log="${TMPDIR:-/tmp}/warpscope-setup.log"
    echo "setup-debian.sh: installing $(echo $missing | wc -w) Debian packages:"
    echo "  compilers and libraries (build-essential, cmake, SDL2, cJSON, boost.context, giflib, libclang),"
    echo "  a Chinese font, the page's toolchain (clang, lld, wasi-libc), chromium and node for the browser tests,"
    echo "  the class server's libraries (libmicrohttpd, SQLite, PostgreSQL's client), the sandbox (bubblewrap, seccomp), nginx;"
    echo "  apt's and dpkg's output goes to $log"
    if ! { $run apt-get update -qq && DEBIAN_FRONTEND=noninteractive $run apt-get install -y -qq --no-install-recommends $missing; } >"$log" 2>&1; then
        tail -n 20 "$log" >&2
        echo "setup-debian.sh: apt-get failed (its last lines above; all of it in $log)" >&2
        exit 1
    fi
fi
if [ $need_cjson -eq 1 ]; then
    # Debian's source package of the libcjson installed above, through a source list of our own
    # (the system's apt sources are left as they are)
    tmp="$(mktemp -d)"
    chmod 755 "$tmp"
    mkdir -p "$tmp/lists/partial"
    printf 'deb-src http://deb.debian.org/debian bookworm main\ndeb-src http://deb.debian.org/debian-security bookworm-security main\n' >"$tmp/src.list"
    o="-o Dir::Etc::SourceList=$tmp/src.list -o Dir::Etc::SourceParts=/nonexistent -o Dir::State::Lists=$tmp/lists"
    $run apt-get $o update -qq
    (cd "$tmp" && $run apt-get $o source -qq "libcjson-dev=$(dpkg-query -W -f='${Version}' libcjson-dev)" >/dev/null 2>&1 ||
        $run apt-get $o source -qq libcjson-dev >/dev/null)
    $run mkdir -p "$cjson_src"
    $run cp "$tmp"/cjson-*/cJSON.c "$tmp"/cjson-*/cJSON.h "$tmp"/cjson-*/LICENSE "$cjson_src/"
    $run rm -rf "$tmp"
fi
if [ $need_npm -eq 1 ]; then
    # the browser test's driver, at the version its lock file names. Without a registry (offline, a
    # lab with a Debian mirror alone) setup goes on: what npm ci left is removed, so the browser
    # tests skip (77: no puppeteer-core) and the next run of this script tries again
    if ! (cd "$here/tests/web" && npm ci --silent --no-audit --no-fund) >/dev/null 2>&1; then
        rm -rf "$here/tests/web/node_modules"
        echo "setup-debian.sh: npm ci failed (no registry?): the browser tests will be skipped" >&2
    fi
    # the page's editor, the same way: without it the page is built without its editor and says so
    if ! (cd "$here/web/editor" && npm ci --silent --no-audit --no-fund) >/dev/null 2>&1; then
        rm -rf "$here/web/editor/node_modules"
        echo "setup-debian.sh: npm ci failed in web/editor (no registry?): the page will be built without its editor" >&2
    fi
fi
