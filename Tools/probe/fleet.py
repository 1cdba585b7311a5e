#!/usr/bin/env python3
"""What a fleet's publishers can make a gpsfix fleet reader spend, measured.

Starts its own mosquitto on a free loopback port (a config of its own that accepts packets up
to 200 MB, so a 100 MB publish reaches the broker at all) and, against it:

  vehicles   `gpsfix serve --mqtt-in .../fleet/+` and `gpsfix watch --mqtt .../fleet/+ --json`;
             50,000 distinct vehicles each publish one TPV (one connection, QoS 0, in a
             few seconds). Reports each reader's resident memory idle and after, the devices
             ?DEVICES lists (serve), and the refusals the log counts.
  big        a fresh reader of each kind; one 100 MB publish to fleet/big/tpv, then one
             normal TPV. Reports each reader's peak resident memory (VmHWM) idle and after,
             and whether the normal TPV was still read.

Usage: Tools/probe/fleet.py [vehicles|big|all] (default all); GPSFIX=path picks the binary
(default .build/release/gpsfix, else .build/debug/gpsfix); VEHICLES=N (default 50000).
Needs mosquitto (the broker) only: the publisher speaks MQTT 3.1.1 itself.
"""
import json
import os
import re
import socket
import struct
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TPV = json.dumps({"class": "TPV", "device": "/dev/ttyACM0", "mode": 3, "time": "2026-01-01T00:00:00.000Z",
                  "lat": 52.1, "lon": 4.3, "altMSL": 10.0}, separators=(",", ":")).encode()


def gpsfix_binary():
    for path in [os.environ.get("GPSFIX"), ROOT + "/.build/release/gpsfix", ROOT + "/.build/debug/gpsfix"]:
        if path and os.access(path, os.X_OK):
            return path
    sys.exit("build gpsfix first (swift build -c release --product gpsfix), or set GPSFIX=path")


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def status_kb(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return None


class Broker:
    def __init__(self, work):
        self.port = free_port()
        conf = os.path.join(work, "mosquitto.conf")
        with open(conf, "w") as f:
            # max_packet_size: what the broker accepts from a publisher (0, the default, is
            # MQTT's own limit of 256 MB); a reader's own Maximum Packet Size is another matter.
            # max_queued_messages: every one of the vehicles' reports reaches the readers, however
            # far behind they fall (the default of 1000 would drop some for them).
            f.write(f"listener {self.port} 127.0.0.1\nallow_anonymous true\nmax_packet_size 200000000\n"
                    "max_queued_messages 1000000\n")
        self.log = open(os.path.join(work, "mosquitto.log"), "w")
        self.process = subprocess.Popen(["mosquitto", "-c", conf], stdout=self.log, stderr=self.log)
        deadline = time.time() + 5
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        sys.exit("mosquitto did not start")

    def stop(self):
        self.process.kill()
        self.process.wait()


def varint(n):
    out = bytearray()
    while True:
        byte, n = n % 128, n // 128
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def packet(kind, body):
    return bytes([kind]) + varint(len(body)) + body


class Publisher:
    """A bare MQTT 3.1.1 publisher on one connection: QoS 0, then a ping whose answer says the
    broker has taken everything before it."""

    def __init__(self, port, client_id="probe-publisher"):
        self.s = socket.create_connection(("127.0.0.1", port))
        cid = client_id.encode()
        self.s.sendall(packet(0x10, b"\x00\x04MQTT\x04\x02\x00\x3c" + struct.pack("!H", len(cid)) + cid))
        if self.s.recv(4)[:1] != b"\x20":
            sys.exit("the broker refused the publisher")

    def publish(self, topic, payload):
        t = topic.encode()
        self.s.sendall(packet(0x30, struct.pack("!H", len(t)) + t + payload))

    def sync(self):
        self.s.sendall(b"\xc0\x00")
        self.s.settimeout(120)
        data = b""
        while b"\xd0\x00" not in data:
            chunk = self.s.recv(65536)
            if not chunk:
                sys.exit("the broker closed the publisher's connection")
            data += chunk

    def close(self):
        self.s.sendall(b"\xe0\x00")
        self.s.close()


class Reader:
    """gpsfix serve --mqtt-in (kind "serve") or watch --mqtt --json (kind "watch") on fleet/+."""

    def __init__(self, kind, binary, broker, work):
        self.kind = kind
        url = f"mqtt://127.0.0.1:{broker.port}/fleet/+"
        self.err_path = os.path.join(work, f"{kind}-{time.time_ns()}.err")
        self.out_path = self.err_path.replace(".err", ".out")
        err = open(self.err_path, "w")
        out = open(self.out_path, "w")
        args = [binary, "serve", "--mqtt-in", url, "--listen", "127.0.0.1:0"] if kind == "serve" \
            else [binary, "watch", "--mqtt", url, "--json"]
        self.process = subprocess.Popen(args, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        self.port = None
        deadline = time.time() + 10
        while time.time() < deadline:
            text = self.stderr()
            if kind == "serve":
                m = re.search(r"serving gpsd's protocol on 127\.0\.0\.1:(\d+)", text)
                if m:
                    self.port = int(m.group(1))
                    break
            elif self.process.poll() is None and time.time() > deadline - 9:
                break
            time.sleep(0.1)
        time.sleep(1)  # connected and subscribed

    def stderr(self):
        with open(self.err_path, errors="replace") as f:
            return f.read()

    def stdout_lines(self):
        with open(self.out_path, errors="replace") as f:
            return f.read().splitlines()

    def rss(self):
        return status_kb(self.process.pid, "VmRSS")

    def peak(self):
        return status_kb(self.process.pid, "VmHWM")

    def devices(self):
        """The devices ?DEVICES lists (serve only); None when no whole reply came in 10 s."""
        s = socket.create_connection(("127.0.0.1", self.port), timeout=10)
        try:
            f = s.makefile("rb")
            f.readline()
            s.sendall(b"?DEVICES;")
            return json.loads(f.readline()).get("devices", [])
        except (OSError, ValueError):
            return None
        finally:
            s.close()

    def settle(self, seconds=30):
        """Waits until the reader's CPU time stops growing (it has read what the broker sent)."""
        def cpu():
            with open(f"/proc/{self.process.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return int(fields[11]) + int(fields[12])
        last, deadline = cpu(), time.time() + seconds
        while time.time() < deadline:
            time.sleep(1)
            now = cpu()
            if now == last:
                return
            last = now

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)
        return self.stderr()


def refusals(log):
    """Reports refused for a full fleet: the first said alone, then counted in summaries."""
    counted = sum(int(m.group(1)) for m in re.finditer(r"(\d+) reports from new vehicles refused", log))
    return counted, log.count("fleet full:")


def vehicles(binary, work, n):
    broker = Broker(work)
    try:
        readers = [Reader("serve", binary, broker, work), Reader("watch", binary, broker, work)]
        idle = {r.kind: r.rss() for r in readers}
        publisher = Publisher(broker.port)
        start = time.time()
        for i in range(n):
            publisher.publish(f"fleet/v{i}/tpv", TPV)
        publisher.sync()
        published = time.time() - start
        for r in readers:
            r.settle()
        # settle() saw a second without CPU: the readers were done about then.
        settled = time.time() - start - 1
        after = {r.kind: r.rss() for r in readers}
        listed = readers[0].devices()
        listed = "no reply" if listed is None else len(listed)
        watched = len({json.loads(line).get("device") for line in readers[1].stdout_lines() if line.startswith("{")})
        logs = {r.kind: r.stop() for r in readers}
        publisher.close()
        print(f"{n} vehicles published in {published:.1f} s; both readers done within {settled:.1f} s of the start")
        for kind in ("serve", "watch"):
            counted, said = refusals(logs[kind])
            print(f"  {kind}: RSS {idle[kind] / 1024:.1f} MB idle -> {after[kind] / 1024:.1f} MB after; "
                  f"refused {counted} (said once: {said} line)")
        print(f"  serve: ?DEVICES lists {listed}; watch --json named {watched} vehicles")
    finally:
        broker.stop()


def big(binary, work):
    broker = Broker(work)
    try:
        readers = [Reader("serve", binary, broker, work), Reader("watch", binary, broker, work)]
        idle = {r.kind: (r.rss(), r.peak()) for r in readers}
        publisher = Publisher(broker.port)
        start = time.time()
        publisher.publish("fleet/big/tpv", b"x" * 100_000_000)
        publisher.publish("fleet/after/tpv", TPV)
        publisher.sync()
        took = time.time() - start
        for r in readers:
            r.settle(10)
        time.sleep(1)
        after = {r.kind: (r.rss(), r.peak()) for r in readers}
        read_after = {"serve": [d.get("path") for d in readers[0].devices() or []],
                      "watch": [json.loads(line).get("device") for line in readers[1].stdout_lines() if line.startswith("{")]}
        for r in readers:
            r.stop()
        publisher.close()
        print(f"one 100 MB publish (taken by the broker in {took:.1f} s), then one TPV")
        for kind in ("serve", "watch"):
            (rss0, peak0), (rss1, peak1) = idle[kind], after[kind]
            print(f"  {kind}: peak RSS {peak0 / 1024:.1f} MB idle -> {peak1 / 1024:.1f} MB after "
                  f"(+{(peak1 - peak0) / 1024:.2f} MB; RSS now {rss1 / 1024:.1f} MB); "
                  f"read the next TPV: {'after' in read_after[kind]}; the 100 MB one: {'big' in read_after[kind]}")
    finally:
        broker.stop()


def main():
    what = sys.argv[1] if len(sys.argv) > 1 else "all"
    binary = gpsfix_binary()
    print(f"gpsfix: {binary}")
    with tempfile.TemporaryDirectory() as work:
        if what in ("vehicles", "all"):
            vehicles(binary, work, int(os.environ.get("VEHICLES", "50000")))
        if what in ("big", "all"):
            big(binary, work)


if __name__ == "__main__":
    main()
