#!/usr/bin/env python3
"""A gpsd client's latency through `gpsfix serve`, alone and beside a crowd of web clients.

A 10 Hz receiver is played into a pseudo-terminal (as Tools/probe/latency.py does), read by
one `gpsfix serve --device PTY --http PORT`. One gpsd client watches JSON throughout and
stamps each TPV as it arrives; its latency is the time from the epoch's last byte written to
its TPV read. The run alternates phases of `--seconds` each: "alone" (no web client) and
"crowded" (`--streams` clients reading /events, 200 by default, and one more that sends its
request and never reads a byte). The crowd is read by a process of its own, so that its
reading does not hold up the gpsd client's stamps (Python's threads share one lock). Printed: each phase's median, 90th percentile and worst,
the TPVs each event stream got, and whether the one that never reads was let go.

    python3 Tools/probe/sse_load.py [--gpsfix .build/release/gpsfix] [--rounds 2] [--seconds 8] [--json]
"""
import argparse
import json
import multiprocessing
import os
import urllib.request
import selectors
import socket
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from latency import Player, connect, free_port, read_lines, tpv_stamp  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Crowd:
    """`count` event streams read by one thread, each counting the TPV events it gets, and one
    stream that is asked for and never read."""

    def __init__(self, port, count):
        self.selector = selectors.DefaultSelector()
        self.counts = {}
        self.stop = threading.Event()
        deadline = time.monotonic() + 10
        for _ in range(count):
            s = connect(port, deadline)
            s.sendall(b"GET /events HTTP/1.1\r\nHost: probe\r\nAccept: text/event-stream\r\n\r\n")
            s.setblocking(False)
            self.counts[s] = [0, b""]
            self.selector.register(s, selectors.EVENT_READ)
        self.sleeper = socket.socket()
        # A small receive buffer, so its queue at the server fills and it is seen not to read.
        self.sleeper.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sleeper.connect(("127.0.0.1", port))
        self.sleeper.sendall(b"GET /events HTTP/1.1\r\nHost: probe\r\n\r\n")
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        while not self.stop.is_set():
            for key, _ in self.selector.select(timeout=0.2):
                s = key.fileobj
                try:
                    chunk = s.recv(65536)
                except BlockingIOError:
                    continue
                except OSError:
                    chunk = b""
                if not chunk:
                    self.selector.unregister(s)
                    continue
                entry = self.counts[s]
                data = entry[1] + chunk
                *lines, entry[1] = data.split(b"\n")
                entry[0] += sum(1 for line in lines if line.startswith(b'data: {"class":"TPV"'))

    def close(self):
        self.stop.set()
        self.thread.join()
        tpvs = sorted(c for c, _ in self.counts.values())
        for s in self.counts:
            s.close()
        self.sleeper.close()
        return tpvs


def crowd_process(port, count, ready, done, results):
    """The crowd, in a process of its own: ready once connected, counts sent back when done."""
    crowd = Crowd(port, count)
    ready.set()
    done.wait()
    results.send(crowd.close())


def web_clients(port):
    """How many web clients the server counts (this request among them), from /metrics."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        for line in response.read().decode().splitlines():
            if line.startswith('gpsfix_clients{feed="http"}'):
                return int(float(line.split()[-1]))
    return -1


def summary(values):
    if not values:
        return {"epochs": 0}
    values = sorted(values)
    return {"epochs": len(values), "median_us": round(statistics.median(values), 1),
            "p90_us": round(values[max(0, int(len(values) * 0.9) - 1)], 1), "worst_us": round(values[-1], 1)}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--gpsfix", default=os.path.join(ROOT, ".build/release/gpsfix"))
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    args = parser.parse_args()

    master, slave = os.openpty()
    pty = os.ttyname(slave)
    os.close(slave)
    player = Player(master)
    gpsd_port, http_port = free_port(), free_port()
    process = subprocess.Popen([args.gpsfix, "serve", "--device", pty, "--listen", f"127.0.0.1:{gpsd_port}",
                                "--http", f"127.0.0.1:{http_port}", "--max-clients-per-address", "256",
                                "--client-timeout", "3"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    arrivals = {}
    stop = threading.Event()
    phases = {"alone": [], "crowded": []}
    missed = {"alone": 0, "crowded": 0}
    streams = []
    let_go = []
    try:
        warm = threading.Thread(target=player.play, args=(1.0,))
        warm.start()
        sock = connect(gpsd_port, time.monotonic() + 5)
        sock.sendall(b'?WATCH={"enable":true,"json":true}\n')

        def on_line(line, now):
            stamp = tpv_stamp(line)
            if stamp is not None and stamp not in arrivals:
                arrivals[stamp] = now
        threading.Thread(target=read_lines, args=(sock, on_line, stop), daemon=True).start()
        warm.join()
        for _ in range(args.rounds):
            for phase in ("alone", "crowded"):
                crowd = None
                if phase == "crowded":
                    ready, done = multiprocessing.Event(), multiprocessing.Event()
                    receiving, sending = multiprocessing.Pipe(duplex=False)
                    crowd = multiprocessing.Process(target=crowd_process, args=(http_port, args.streams, ready, done, sending))
                    crowd.start()
                    ready.wait(30)
                    # The streams settle (their heads and first state) before the measuring.
                    player.play(1.0)
                before = dict(player.sent)
                player.play(args.seconds)
                time.sleep(0.3)
                measured = [(s, t) for s, t in player.sent.items() if s not in before]
                got = [(arrivals[s] - t) / 1000 for s, t in measured if s in arrivals]
                phases[phase] += got
                missed[phase] += len(measured) - len(got)
                if crowd:
                    # The never-reading stream's reports fill its kernel buffers, then its
                    # queue is not drained for --client-timeout (3 s), and it is let go: the
                    # server then counts the readers and this request alone.
                    deadline = time.monotonic() + 40
                    while web_clients(http_port) > args.streams + 1 and time.monotonic() < deadline:
                        player.play(1.0)
                    let_go.append(web_clients(http_port) <= args.streams + 1)
                    done.set()
                    tpvs = receiving.recv()
                    crowd.join(10)
                    streams.append({"min_tpvs": tpvs[0], "max_tpvs": tpvs[-1], "streams": len(tpvs)})
        stop.set()
        sock.close()
    finally:
        player.stop.set()
        process.terminate()
        try:
            _, err = process.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            _, err = process.communicate()
    result = {"alone": summary(phases["alone"]), "crowded": summary(phases["crowded"]),
              "missed": missed, "streams": streams, "never_reading_let_go": let_go,
              "log": err.decode(errors="replace")[-2000:]}
    if args.json:
        print(json.dumps(result))
    else:
        for phase in ("alone", "crowded"):
            s = result[phase]
            print(f"{phase:8s} {s.get('epochs', 0):4d} epochs (missed {missed[phase]}): median {s.get('median_us', 0):8.1f} µs, "
                  f"p90 {s.get('p90_us', 0):8.1f} µs, worst {s.get('worst_us', 0):8.1f} µs")
        for i, s in enumerate(streams):
            print(f"crowd {i + 1}: {s['streams']} event streams got {s['min_tpvs']}–{s['max_tpvs']} TPVs each; "
                  f"the one never reading was {'let go' if let_go[i] else 'still connected'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
