#!/bin/sh
# Installs the Debian 12 packages warpscope builds with. Uses sudo when not run as root.
set -e
pkgs="build-essential cmake pkg-config python3 libcjson-dev libboost-context-dev libsdl2-dev libsdl2-ttf-dev libsdl2-image-dev xvfb xauth clang libclang-rt-14-dev"
missing=""
for p in $pkgs; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -eq 0 ]; then run=""; else run="sudo"; fi
$run apt-get update -qq
DEBIAN_FRONTEND=noninteractive $run apt-get install -y -qq --no-install-recommends $missing
