#!/bin/sh
# The benchmark on a real GPU (label gpu): a short run whose every result must check out.
# Skipped (77) without a GPU or without CUDA in the build.
ws="$1"
out=$("$ws" bench --sizes 2^16,2^20 --reps 5 2>&1); rc=$?
case "$out" in *"needs an NVIDIA GPU"*|*"needs a build with CUDA"*) echo "no GPU or no CUDA build: skipped"; exit 77;; esac
echo "$out" | tail -n 40
[ $rc -eq 0 ] && ! echo "$out" | grep -q WRONG
