# Sourced by tools/device-serve.sh and tools/device-nginx-lab.sh there, from the repository root (as
# root): the server packed by `tools/device-serve.sh prepare` unpacked into $pack, and the data and
# headers a learner's file compiles against laid out in $data, as an installed warpscope has them.
pack=/tmp/wsserve
mkdir -p $pack && xz -dc .devserve/serve.tar.xz | tar -C $pack -xf - || return 1
# bubblewrap where warpscope looks for it (the machine has none), and libclang's builtin headers
# where Debian's libclang looks for them; nothing of the system is replaced
[ -e /usr/bin/bwrap ] || cp $pack/bin/bwrap /usr/bin/bwrap
res=$(cat .devserve/resource-dir)
[ -e "$res" ] || { mkdir -p "$(dirname "$res")" && cp -r "$pack/lib/clang/$(basename "$(dirname "$res")")/include" "$res"; } || return 1
export LD_LIBRARY_PATH=$pack/lib XDG_CACHE_HOME=/tmp/wscache
# the data and the headers a learner's file compiles against, as an installed warpscope has them
data=/tmp/wsdata
mkdir -p $data/include/trace/capture
ln -sfn "$root/assets" $data/assets
ln -sfn "$root/lessons" $data/lessons
ln -sf "$root/trace/trace.h" $data/include/trace/trace.h
ln -sf "$root/trace/capture/emu.h" "$root/trace/capture/ws_cuda.h" $data/include/trace/capture/
ln -sfn "$root/trace/capture/own" $data/include/trace/capture/own
export WARPSCOPE_DATA=$data
