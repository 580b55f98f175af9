#!/bin/sh
# The class server's systemd unit (packaging/warpscope-serve.service.in) leaves bubblewrap working:
# what systemd would lay out for the unit is laid out by hand, in a mount namespace of the test's
# own, for each setting the unit names: ProtectSystem=strict (every mount read-only), PrivateTmp (a
# fresh /tmp), ProtectHome (homes empty), PrivateDevices (a /dev of the basic nodes),
# ProtectKernelTunables (/proc/sys and its kin, and /sys, read-only), ProtectKernelLogs (/proc/kmsg
# hidden), ProtectControlGroups (/sys/fs/cgroup read-only); then, as an unprivileged user with
# NoNewPrivileges and an empty bounding set, `warpscope --version` must name bubblewrap and a kernel
# of the course notes must build and run under it, its sum the double-precision sum of its input.
# What systemd makes with a seccomp filter cannot be laid out so: RestrictNamespaces (bubblewrap
# makes namespaces) and SystemCallFilter (it calls mount and pivot_root) must stay out of the unit.
# Skipped (77) when not root (the namespace is root's to make), without unshare or setpriv, or
# where this machine gives no bubblewrap sandbox to begin with.
ws="$1"
src="$2"
unit="$src/packaging/warpscope-serve.service.in"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: not root (a mount namespace of the test's own needs root)"; exit 77; }
for t in unshare setpriv; do command -v $t >/dev/null 2>&1 || { echo "SKIP: no $t"; exit 77; }; done
"$ws" --version | grep -q "^sandbox for a learner's file: bubblewrap" || {
    echo "SKIP: this machine gives no bubblewrap sandbox: $("$ws" --version | grep sandbox)"
    exit 77
}
[ -f "$unit" ] || { echo "FAIL: no $unit"; exit 1; }
fail=0
say() { echo "FAIL: $*"; fail=1; }
# the unit's value of a setting ("" when it does not name it)
setting() { sed -n "s/^$1=//p" "$unit" | tail -n 1; }
yes() { case "$(setting "$1")" in yes | true | on | 1 | strict | full) return 0 ;; esac; return 1; }

for s in RestrictNamespaces SystemCallFilter; do
    v=$(setting $s)
    case "$v" in "" | no | false | off | 0) ;; *) say "the unit sets $s=$v: bubblewrap makes namespaces and calls mount, pivot_root and unshare" ;; esac
done
[ "$(setting ProtectSystem)" = strict ] || say "the unit does not set ProtectSystem=strict (it sets '$(setting ProtectSystem)')"
yes NoNewPrivileges || say "the unit does not set NoNewPrivileges=yes"
[ -n "$(setting User)" ] || say "the unit names no User"

# the layout, as a script run inside the namespace
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
{
    echo 'set -e'
    # the mounts the test reads from, before / is made read-only and /tmp is replaced
    echo "mount --bind '$tmp' /mnt"
    if yes PrivateDevices; then
        echo 'mkdir -p /mnt/dev && mount -t tmpfs -o mode=755 tmpfs /mnt/dev'
        echo 'for n in null zero full random urandom tty; do touch /mnt/dev/$n && mount --bind /dev/$n /mnt/dev/$n; done'
        echo 'mkdir /mnt/dev/pts /mnt/dev/shm && mount -t devpts -o newinstance,ptmxmode=0666 devpts /mnt/dev/pts && ln -s pts/ptmx /mnt/dev/ptmx'
        echo 'mount --move /mnt/dev /dev'
    fi
    if yes ProtectKernelTunables; then
        echo 'for p in /proc/sys /proc/sysrq-trigger /proc/irq /proc/bus /proc/fs /proc/acpi /proc/latency_stats /proc/timer_list; do'
        echo '    [ -e $p ] && mount --bind $p $p && mount -o remount,bind,ro $p $p || true'
        echo 'done'
        echo 'mount --bind /sys /sys && mount -o remount,bind,ro /sys /sys'
    fi
    yes ProtectKernelLogs && echo 'mount --bind /dev/null /proc/kmsg'
    yes ProtectControlGroups && echo '[ -d /sys/fs/cgroup ] && mount --bind /sys/fs/cgroup /sys/fs/cgroup && mount -o remount,bind,ro /sys/fs/cgroup /sys/fs/cgroup || true'
    # ProtectSystem=strict: every mount but the kernel's own read-only
    echo "for m in \$(awk '{ print \$5 }' /proc/self/mountinfo | sort -u); do"
    echo '    case $m in /proc | /proc/* | /sys | /sys/* | /dev | /dev/* | /mnt) continue ;; esac'
    echo '    mount -o remount,bind,ro "$m" 2>/dev/null || true'
    echo 'done'
    if yes PrivateTmp; then
        # the build and the source stay where they are (as /usr does for the service), also when
        # they live in /tmp: their top folder there is kept aside and put back on the fresh /tmp
        keep=$(for d in "$(dirname "$ws")" "$src"; do case "$d" in /tmp/*) echo "$d" | cut -d/ -f1-3 ;; esac; done | sort -u)
        i=0
        for d in $keep; do i=$((i + 1)); echo "mkdir -p /mnt/keep$i && mount --bind '$d' /mnt/keep$i"; done
        echo 'mount -t tmpfs -o mode=1777 tmpfs /tmp'
        i=0
        for d in $keep; do i=$((i + 1)); echo "mkdir -p '$d' && mount --bind /mnt/keep$i '$d' && mount -o remount,bind,ro '$d'"; done
        echo '[ -d /var/tmp ] && mount -t tmpfs -o mode=1777 tmpfs /var/tmp || true'
    fi
    if yes ProtectHome; then
        # the build and the source stay where they are also when they live in a home (a clone in
        # /root, run as root): each is kept aside and put back, read-only, on the empty homes, whose
        # fresh folders (0755) the user nobody may pass through as it may pass through /usr
        hkeep=$(for d in "$src" "$(dirname "$ws")"; do case "$d" in /home/* | /root/* | /run/user/*) echo "$d" ;; esac; done | sort -u)
        i=0
        for d in $hkeep; do i=$((i + 1)); echo "mkdir -p /mnt/hkeep$i && mount --bind '$d' /mnt/hkeep$i"; done
        echo 'for h in /home /root /run/user; do [ -d $h ] && mount -t tmpfs -o mode=755 tmpfs $h || true; done'
        i=0
        for d in $hkeep; do i=$((i + 1)); echo "mkdir -p '$d' && mount --bind /mnt/hkeep$i '$d' && mount -o remount,bind,ro '$d'"; done
    fi
    # the service's own folder (its StateDirectory and CacheDirectory): writable, its user's
    echo 'mkdir -p /mnt/state && chown 65534:65534 /mnt/state'
    echo "cp '$src/tests/own/seed004_reduce0.cu' /mnt/state/k.cu && chown 65534:65534 /mnt/state/k.cu"
    echo 'cd /mnt/state'
    drop="setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all"
    yes NoNewPrivileges && drop="$drop --no-new-privs"
    [ -n "$(grep -x 'CapabilityBoundingSet=' "$unit")" ] && drop="$drop --bounding-set=-all"
    echo "export HOME=/mnt/state XDG_CACHE_HOME=/mnt/state/cache XDG_STATE_HOME=/mnt/state"
    echo "$drop '$ws' --version >/mnt/version.txt 2>&1"
    echo "$drop '$ws' capture --kernel k.cu --define THREAD_PER_BLOCK=256 --entry 'reduce0<<<1, 256>>>(in, out)' --n 256 -o /mnt/state/k.json >/mnt/capture.txt 2>&1 || echo \"exit \$?\" >>/mnt/capture.txt"
    echo "cp /mnt/state/k.json /mnt/k.json 2>/dev/null || true"
} >"$tmp/layout.sh"
unshare -m --propagation private sh -x "$tmp/layout.sh" >"$tmp/layout.log" 2>&1 || { echo "FAIL: the layout did not run:"; tail -n 15 "$tmp/layout.log"; exit 1; }

grep -q "^sandbox for a learner's file: bubblewrap" "$tmp/version.txt" ||
    say "under the unit's settings the sandbox is not bubblewrap: $(grep sandbox "$tmp/version.txt" || cat "$tmp/version.txt")"
# the sum against the double-precision sum of the values the trace loaded (computed here)
python3 - "$tmp/k.json" "$tmp/capture.txt" <<'EOF' || fail=1
import json, math, sys
try:
    t = json.load(open(sys.argv[1]))
except (OSError, ValueError) as e:
    print("FAIL: no trace from the capture under the unit's settings (%s): %s" % (e, open(sys.argv[2]).read()[-600:]))
    sys.exit(1)
inputs = {}
for e in t["events"]:
    if e["k"] == "global_load" and t["buffers"][e["g"]]["name"] == "in":
        for a, v in zip(e["a"], e["v"]):
            inputs[a] = v
ref = math.fsum(inputs.values())
tol = (math.ceil(math.log2(256)) + 2) * 2.0 ** -24 * sum(abs(v) for v in inputs.values())
if sorted(inputs) != list(range(256)) or abs(t["result"] - ref) > tol:
    print("FAIL: the capture under the unit's settings gave %r from %d inputs, their double sum is %r" % (t["result"], len(inputs), ref))
    sys.exit(1)
print("the capture under the unit's settings: %r, the double sum of its 256 inputs %r" % (t["result"], ref))
EOF
[ $fail -eq 0 ] && echo "OK: bubblewrap works under the unit's settings: $(grep sandbox "$tmp/version.txt")"
exit $fail
