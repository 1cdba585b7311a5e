#!/usr/bin/env python3
"""Squatting probe for `gpsfix serve` (issue 17): how long a new client waits for a slot
while squatters hold them.

Starts `gpsfix serve` replaying a bundled capture on a free loopback port, opens SQUATTERS
clients that each send ?WATCH={"enable":true}; once and then nothing (a watch that is sent
nothing), and then times how long a newcomer takes to be greeted with VERSION (retrying
every 0.2 s while refused), from another address (127.0.0.2) and from the squatters' own.

Then, by default, it waits out the idle rule (60 s: a watch that receives nothing while
the devices report is closed) and counts the squatters left. Two layouts: every squatter from 127.0.0.1 (the per-address limit holds them to 64), and the
squatters spread over eight addresses 127.0.0.10-17 (so they take all 200 slots). Prints
the figures and what the server logged about refusals (held to five lines a minute each).

    python3 Tools/probe/squat.py [--gpsfix .build/debug/gpsfix] [--squatters 250]
"""
import argparse
import os
import signal
import socket
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def connect(port, source):
    s = socket.socket()
    s.bind((source, 0))
    s.settimeout(2)
    s.connect(("127.0.0.1", port))
    return s


def first_line(s):
    data = b""
    while b"\n" not in data:
        chunk = s.recv(4096)
        if not chunk:
            break
        data += chunk
    return data.split(b"\n")[0].decode(errors="replace")


def squat(port, sources, count):
    """Opens `count` squatters round-robin over `sources`; returns (held sockets, refused)."""
    held, refused = [], 0
    for i in range(count):
        s = connect(port, sources[i % len(sources)])
        line = first_line(s)
        if '"VERSION"' in line:
            s.sendall(b'?WATCH={"enable":true};\n')
            held.append(s)
        else:
            refused += 1
            s.close()
    return held, refused


def time_to_served(port, source, limit):
    """Seconds until a client from `source` is greeted with VERSION, and how many tries."""
    started = time.monotonic()
    tries = 0
    while time.monotonic() - started < limit:
        tries += 1
        s = connect(port, source)
        line = first_line(s)
        s.close()
        if '"VERSION"' in line:
            return time.monotonic() - started, tries
        time.sleep(0.2)
    return None, tries


def connected(sockets):
    """How many of `sockets` the server has not closed (what it sent before is read away)."""
    alive = 0
    for s in sockets:
        s.settimeout(0)
        try:
            while True:
                if not s.recv(65536):
                    break
        except BlockingIOError:
            alive += 1
        except OSError:
            pass
    return alive


def run(gpsfix, squatters, sources, label, limit, idle_wait):
    port = free_port()
    log = open(f"/tmp/squat-{os.getpid()}-{label}.log", "w+")
    capture = os.path.join(ROOT, "Captures", "drive-1hz.nmea")
    server = subprocess.Popen([gpsfix, "serve", "--replay", capture, "--loop", "--speed", "1",
                               "--listen", f"127.0.0.1:{port}"], stdout=subprocess.DEVNULL, stderr=log)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        t0 = time.monotonic()
        held, refused = squat(port, sources, squatters)
        print(f"[{label}] {squatters} squatters from {sources[0]}{'…' + sources[-1] if len(sources) > 1 else ''}: "
              f"{len(held)} held a slot, {refused} refused ({time.monotonic() - t0:.1f} s)")
        for source in ("127.0.0.2", "127.0.0.1"):
            took, tries = time_to_served(port, source, limit)
            since = time.monotonic() - t0
            shown = f"{took:.2f} s ({tries} tries)" if took is not None else f"not within {limit} s ({tries} tries)"
            print(f"[{label}] newcomer from {source}: served after {shown}; squatters' watch began {since:.1f} s ago")
        print(f"[{label}] squatters still connected: {connected(held)} of {len(held)}")
        if idle_wait > 0:
            time.sleep(max(0, idle_wait - (time.monotonic() - t0)))
            print(f"[{label}] {time.monotonic() - t0:.0f} s after the squat (the idle rule is 60 s): "
                  f"{connected(held)} of {len(held)} squatters still connected")
        for s in held:
            s.close()
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=10)
    log.seek(0)
    lines = log.read().splitlines()
    refused_lines = [l for l in lines if ": refused " in l]
    counts = [l for l in lines if "in the last minute" in l]
    print(f"[{label}] server log: {len(lines)} lines, {len(refused_lines)} 'refused' lines; counts: {counts}")
    os.unlink(log.name)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--gpsfix", default=os.path.join(ROOT, ".build", "debug", "gpsfix"))
    parser.add_argument("--squatters", type=int, default=250)
    parser.add_argument("--limit", type=float, default=90, help="give up on a newcomer after this many seconds")
    parser.add_argument("--idle-wait", type=float, default=65,
                        help="then wait until this many seconds after the squat and count the squatters left (0: don't)")
    args = parser.parse_args()
    if not os.access(args.gpsfix, os.X_OK):
        sys.exit(f"no gpsfix at {args.gpsfix}: swift build first, or pass --gpsfix")
    run(args.gpsfix, args.squatters, ["127.0.0.1"], "one address", args.limit, args.idle_wait)
    run(args.gpsfix, args.squatters, [f"127.0.0.{i}" for i in range(10, 18)], "eight addresses", args.limit, args.idle_wait)


if __name__ == "__main__":
    main()
