#!/usr/bin/env python3
"""Issue 18's "gpsd's ?WATCH rules", shown against a gpsfix binary: `serve` replays a capture
on a free loopback port, and each real client's first request, byte for byte as its source
sends it, is written on a connection of its own; what comes back within 2.5 s is counted.
Before gpsfix read requests by gpsd's rules, Home Assistant's, Signal K's and OpenCPN's got
nothing (no ';' after the object; two never name enable). The server is ended by its PID.
Usage: Tools/probe/real-clients.py [GPSFIX]   (default .build/debug/gpsfix)"""
import socket, subprocess, sys, time

gpsfix = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/gpsfix"
CLIENTS = [
    ("Home Assistant (gps3)", b'?WATCH={"enable":true,"json":true}'),
    ("Signal K (node-gpsd)", b'?WATCH={"class":"WATCH","nmea":true,"json":false}'),
    ("node-gpsd default", b'?WATCH={"class":"WATCH","json":true,"nmea":false}'),
    ("OpenCPN", b'?WATCH={"class":"WATCH", "nmea":true}'),
    ("cgps, gpspipe -w (libgps)", b'?WATCH={"enable":true,"json":true};'),
    ("gpspipe -r (libgps)", b'?WATCH={"enable":true,"nmea":true};'),
]

probe = socket.socket()
probe.bind(("127.0.0.1", 0))
port = probe.getsockname()[1]
probe.close()
server = subprocess.Popen([gpsfix, "serve", "--replay", "Captures/drive-1hz.nmea", "--loop", "--listen", str(port)],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    deadline = time.time() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if time.time() > deadline:
                sys.exit("gpsfix serve did not listen")
            time.sleep(0.1)
    for name, request in CLIENTS:
        with socket.create_connection(("127.0.0.1", port), timeout=2.5) as s:
            s.recv(4096)  # VERSION
            s.sendall(request)
            data, start = b"", time.time()
            try:
                while time.time() - start < 2.5:
                    more = s.recv(65536)
                    if not more:
                        break
                    data += more
            except socket.timeout:
                pass
        lines = data.decode(errors="replace").splitlines()
        kinds = sorted({"NMEA" if l.startswith("$") else l.split('"class":"')[1].split('"')[0] for l in lines if l.startswith("$") or '"class":"' in l})
        print(f"{name:28} {len(lines):3} lines  {' '.join(kinds) or '(nothing)'}")
finally:
    server.terminate()
    server.wait()
