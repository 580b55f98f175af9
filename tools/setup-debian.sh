#!/bin/sh
# Installs the Debian 12 packages warpscope builds and runs with. As root it installs them; as
# another user it uses sudo when there is one, and otherwise says what to run as root.
set -e
# fonts-wqy-microhei: one font with Latin and Simplified Chinese glyphs (SDL2_ttf has no fallback)
# libgif-dev: warpscope export's GIFs. ffmpeg (MP4, WebM export) is optional and not installed here.
# clang and libclang-rt-14-dev: the libFuzzer targets (WS_FUZZ)
# dpkg-dev: dpkg-shlibdeps, which names the Debian package's Depends (cpack -G DEB, the package test)
pkgs="build-essential cmake pkg-config python3 libcjson-dev libboost-context-dev libsdl2-dev libsdl2-ttf-dev libsdl2-image-dev libgif-dev xvfb xauth fonts-wqy-microhei clang libclang-14-dev libclang-rt-14-dev dpkg-dev"
missing=""
for p in $pkgs; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
    run=""
elif command -v sudo >/dev/null 2>&1; then
    run="sudo"
else
    echo "setup-debian.sh: missing packages:$missing" >&2
    echo "setup-debian.sh: run this script as root (no sudo here), or as root: apt-get install$missing" >&2
    exit 2
fi
$run apt-get update -qq
DEBIAN_FRONTEND=noninteractive $run apt-get install -y -qq --no-install-recommends $missing
