#!/usr/bin/env python3
"""Holds slow connections open against a warpscope serve on this machine, and times /api/health meanwhile.

C connections (default 2000) from A loopback addresses (default 8: 127.0.0.2, 127.0.0.3, ...) each
send the start of a request and then one byte of a header every T seconds (default 5), never
finishing it, as a hostile client holds a server's places; a connection the server closes is opened
again. Meanwhile GET /api/health is asked from 127.0.0.1 every 0.5 s with a 5 s timeout. After D
seconds (default 30, at most 180) it prints the connections held, how many the server closed, and
/api/health's answers: how many, p50 and the slowest, and how many failed or took over 1 s.

Only addresses of this machine's loopback (127.0.0.0/8) are used, to a server on 127.0.0.1.

usage: hold-connections.py --port P [--connections C] [--addresses A] [--trickle T] [--duration D] [--json OUT]
Exit: 0 when every /api/health was answered within 1 s, 1 when not, 2 on bad flags.
"""
import argparse
import json
import resource
import selectors
import socket
import sys
import threading
import time
import urllib.request


def parse_flags(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--port", type=int, required=True, help="the server's port on 127.0.0.1")
    p.add_argument("--connections", type=int, default=2000, help="slow connections held (default 2000, at most 4000)")
    p.add_argument("--addresses", type=int, default=8, help="loopback addresses they come from (default 8, at most 200)")
    p.add_argument("--trickle", type=float, default=5.0, help="seconds between a connection's bytes (default 5)")
    p.add_argument("--duration", type=float, default=30.0, help="seconds it runs (default 30, at most 180)")
    p.add_argument("--json", metavar="OUT", help="also write the figures to OUT as JSON")
    a = p.parse_args(argv)
    if not (1 <= a.connections <= 4000 and 1 <= a.addresses <= 200 and 0 < a.duration <= 180 and a.trickle > 0 and 0 < a.port < 65536):
        p.error("--connections 1..4000, --addresses 1..200, --duration up to 180, --trickle above 0, --port 1..65535")
    return a


def main(argv):
    a = parse_flags(argv)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, a.connections + 256)
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    sel = selectors.DefaultSelector()
    conns = {}  # socket -> [next byte due, bytes sent]
    opened = closed = refused = 0

    def open_one(i):
        nonlocal opened, refused
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            s.bind(("127.0.0.%d" % (2 + i % a.addresses), 0))
            s.setblocking(False)
            s.connect_ex(("127.0.0.1", a.port))
            conns[s] = [time.time(), 0]
            sel.register(s, selectors.EVENT_READ)
            opened += 1
        except OSError:
            refused += 1
            s.close()

    health = []
    stop = threading.Event()

    def probe():
        while not stop.is_set():
            t0 = time.time()
            try:
                with urllib.request.urlopen("http://127.0.0.1:%d/api/health" % a.port, timeout=5) as r:
                    r.read()
                    health.append((time.time() - t0, r.status))
            except Exception as e:  # a refusal or a timeout is a failure to answer
                health.append((time.time() - t0, str(e)[:60]))
            stop.wait(max(0.0, 0.5 - (time.time() - t0)))

    for i in range(a.connections):
        open_one(i)
    prober = threading.Thread(target=probe, daemon=True)
    prober.start()
    head = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
    end = time.time() + a.duration
    k = 0
    while time.time() < end:
        for key, _ in sel.select(timeout=0.2):  # readable: the server closed it (or answered)
            s = key.fileobj
            try:
                data = s.recv(4096)
            except OSError:
                data = b""
            if not data:
                sel.unregister(s)
                s.close()
                del conns[s]
                closed += 1
                open_one(k)
                k += 1
        now = time.time()
        for s, st in list(conns.items()):
            if now >= st[0]:
                try:
                    s.send(head if st[1] == 0 else b"x")
                except OSError:
                    pass
                st[1] += 1
                st[0] = now + a.trickle
    stop.set()
    prober.join(timeout=6)
    held = len(conns)
    for s in list(conns):
        s.close()
    secs = sorted(h[0] for h in health if h[1] == 200)
    failed = [h for h in health if h[1] != 200]
    slow = [h for h in health if h[0] > 1.0]
    fig = {
        "connections": a.connections, "addresses": a.addresses, "duration_s": a.duration, "held_at_end": held, "closed_by_server": closed,
        "could_not_open": refused, "health": len(health), "health_failed": len(failed),
        "health_p50_ms": round(1000 * secs[len(secs) // 2]) if secs else None, "health_max_ms": round(1000 * max(h[0] for h in health)) if health else None,
        "health_over_1s": len(slow),
    }
    print("slow connections: %d from %d addresses for %.0f s; held at the end %d; closed by the server %d (opened again); not opened %d"
          % (a.connections, a.addresses, a.duration, held, closed, refused))
    print("/api/health: %d asked, %d failed, p50 %s ms, slowest %s ms, %d over 1 s"
          % (len(health), len(failed), fig["health_p50_ms"], fig["health_max_ms"], len(slow)))
    if failed:
        print("failures: %s" % failed[:3])
    if a.json:
        with open(a.json, "w") as f:
            json.dump(fig, f, indent=1)
    return 0 if health and not failed and not slow else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
