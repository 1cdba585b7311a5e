#!/usr/bin/env python3
"""Live latency through `gpsfix serve`, against gpsd and a trivial relay, on the same pty.

A 10 Hz receiver is played into one pseudo-terminal: each epoch (GGA, GSA, RMC) is written
in one write() to the master side, and the moment that write returns is the epoch's last
byte. Three subjects read the slave side in turn, in alternating rounds, each serving one
TCP client on loopback:

  gpsfix  `gpsfix serve --device PTY`, the client watching gpsd JSON: latency to its TPV
  gpsd    `gpsd -N -n -b PTY`, the same client, the same TPV
  relay   socat copying the pty to a TCP client (no parsing at all): latency to the epoch's
          last line, the floor any reader sits on

and the client (this process) stamps each line as it arrives. Printed per subject: the
median, 90th percentile and worst of the epochs matched (by the fix's time), and the
subject's CPU use while it ran (its utime + stime over the wall time).

    python3 Tools/probe/latency.py [--gpsfix .build/release/gpsfix] [--rounds 3] [--seconds 10]
"""
import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TICKS = os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def checksum(body):
    c = 0
    for b in body.encode():
        c ^= b
    return f"${body}*{c:02X}\r\n"


def epoch(index):
    """One receiver cycle at 10 Hz, and the time its fix carries (hhmmss.ss)."""
    t = 12 * 3600 + index / 10
    hh, rest = divmod(t, 3600)
    mm, ss = divmod(rest, 60)
    stamp = f"{int(hh):02d}{int(mm):02d}{ss:05.2f}"
    lat = 4807.038 + (index % 1000) * 0.001
    gga = checksum(f"GPGGA,{stamp},{lat:.3f},N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
    gsa = checksum("GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1")
    rmc = checksum(f"GPRMC,{stamp},A,{lat:.3f},N,01131.000,E,022.4,084.4,021226,003.1,W")
    return (gga + gsa + rmc).encode(), stamp


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def connect(port, deadline):
    while True:
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=1)
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


class Player:
    """Writes epochs into the pty's master side at 10 Hz and remembers when each went out."""

    def __init__(self, master):
        self.master = master
        self.sent = {}
        self.index = 0
        self.stop = threading.Event()
        # Whatever a subject writes to the device (gpsd's probes) is read and dropped, so
        # the pty never fills.
        threading.Thread(target=self.drain, daemon=True).start()

    def drain(self):
        while not self.stop.is_set():
            try:
                os.read(self.master, 4096)
            except OSError:
                time.sleep(0.01)

    def play(self, seconds):
        start = time.monotonic()
        next_at = start
        while time.monotonic() - start < seconds:
            data, stamp = epoch(self.index)
            self.index += 1
            os.write(self.master, data)
            self.sent[stamp] = time.perf_counter_ns()
            next_at += 0.1
            time.sleep(max(0.0, next_at - time.monotonic()))


def read_lines(sock, on_line, stop):
    buffer = b""
    sock.settimeout(0.5)
    while not stop.is_set():
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            continue
        except OSError:
            return
        if not chunk:
            return
        now = time.perf_counter_ns()
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        for line in lines:
            on_line(line, now)


def tpv_stamp(line):
    """The hhmmss.ss of a TPV's time, or None."""
    if b'"class":"TPV"' not in line:
        return None
    at = line.find(b'"time":"')
    if at < 0:
        return None
    clock = line[at + 8 + 11: at + 8 + 22].decode()     # HH:MM:SS.ss of 2026-12-02THH:MM:SS.sss
    hh, mm, ss = clock[0:2], clock[3:5], clock[6:11]
    return f"{hh}{mm}{float(ss):05.2f}"


def rmc_stamp(line):
    if b"RMC," not in line:
        return None
    return line.split(b",")[1].decode()


def run_round(subject, args, player, pty):
    port = free_port()
    if subject == "gpsfix":
        command = [args.gpsfix, "serve", "--device", pty, "--listen", f"127.0.0.1:{port}"]
        match = tpv_stamp
    elif subject == "gpsd":
        command = [args.gpsd, "-N", "-n", "-b", "-S", str(port), pty]
        match = tpv_stamp
    else:
        command = [args.socat, "-u", f"OPEN:{pty},raw,echo=0", f"TCP-LISTEN:{port},bind=127.0.0.1,reuseaddr"]
        match = rmc_stamp
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    arrivals = {}
    stop = threading.Event()
    try:
        # The subject reads the pty while the player runs: a warm-up, then the measured part.
        warm = threading.Thread(target=player.play, args=(1.0,))
        warm.start()
        sock = connect(port, time.monotonic() + 5)
        if subject != "relay":
            sock.sendall(b'?WATCH={"enable":true,"json":true}\n')

        def on_line(line, now):
            stamp = match(line)
            if stamp is not None and stamp not in arrivals:
                arrivals[stamp] = now
        reader = threading.Thread(target=read_lines, args=(sock, on_line, stop), daemon=True)
        reader.start()
        warm.join()
        player.play(2.0)
        first = dict(player.sent)
        cpu0, wall0 = cpu_seconds(process.pid), time.monotonic()
        player.play(args.seconds)
        cpu1, wall1 = cpu_seconds(process.pid), time.monotonic()
        time.sleep(0.3)
        stop.set()
        sock.close()
        measured = [(stamp, sent) for stamp, sent in player.sent.items() if stamp not in first]
        latencies = [(arrivals[s] - sent) / 1000 for s, sent in measured if s in arrivals]
        return latencies, len(measured), (cpu1 - cpu0) / (wall1 - wall0)
    finally:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--gpsfix", default=os.path.join(ROOT, ".build/release/gpsfix"))
    parser.add_argument("--gpsd", default=shutil.which("gpsd") or "/usr/sbin/gpsd")
    parser.add_argument("--socat", default=shutil.which("socat") or "/usr/bin/socat")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()

    master, slave = os.openpty()
    pty = os.ttyname(slave)
    # gpsd drops root for its own user before it opens a device again.
    os.chmod(pty, 0o666)
    # Nobody of ours holds the slave: gpsfix refuses a port that another process reads.
    os.close(slave)
    player = Player(master)
    results = {"gpsfix": [], "gpsd": [], "relay": []}
    counts = {k: [0, 0] for k in results}
    cpus = {k: [] for k in results}
    for round_number in range(args.rounds):
        for subject in results:
            latencies, sent, cpu = run_round(subject, args, player, pty)
            results[subject] += latencies
            counts[subject][0] += len(latencies)
            counts[subject][1] += sent
            cpus[subject].append(cpu)
            median = statistics.median(latencies) if latencies else float("nan")
            print(f"round {round_number + 1} {subject:6s}: {len(latencies)}/{sent} epochs, "
                  f"median {median:7.1f} µs, CPU {cpu * 100:.2f} %", flush=True)
    player.stop.set()
    print()
    print(f"{'subject':8s} {'epochs':>9s} {'median µs':>10s} {'p90 µs':>9s} {'worst µs':>9s} {'CPU %':>6s}")
    for subject, values in results.items():
        if not values:
            print(f"{subject:8s} no epochs matched")
            continue
        values.sort()
        p90 = values[int(len(values) * 0.9) - 1]
        print(f"{subject:8s} {counts[subject][0]:4d}/{counts[subject][1]:<4d} {statistics.median(values):10.1f} "
              f"{p90:9.1f} {values[-1]:9.1f} {statistics.mean(cpus[subject]) * 100:6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
