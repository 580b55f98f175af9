#!/bin/sh
# GPU against emulator (label gpu): every race-free version identical warp by warp; the textbook
# volatile tails are reported with why. Skipped (77) without a GPU or a CUDA build.
ws="$1"
out=$("$ws" verify --blocks 32,64,256,1024 2>&1); rc=$?
case "$out" in *"verify needs a GPU"*) echo "no GPU: skipped"; exit 77;; esac
echo "$out" | head -n 120
exit $rc
