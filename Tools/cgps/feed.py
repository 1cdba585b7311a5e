#!/usr/bin/env python3
"""Feeds one NMEA capture to two pseudo-terminals at once, sentence for sentence.

Usage: feed.py CAPTURE LINK_A LINK_B [SECONDS_PER_CYCLE]

Makes two ptys and links their terminal ends at LINK_A and LINK_B (for two readers: gpsd on
one, gpsfix on the other), then writes the capture's sentences (its '#' header lines left out)
to both, a cycle at a time (a cycle ends where the time field of RMC/GGA/GLL changes), one
cycle per SECONDS_PER_CYCLE (default 1), round and round until killed.
"""
import os
import re
import sys
import time
import tty

TIME = re.compile(rb"^\$..(?:RMC|GGA|GLL|GNS|ZDA),(\d{6})")


def cycles(path):
    with open(path, "rb") as fh:
        lines = [l.rstrip(b"\r\n") + b"\r\n" for l in fh if l.strip() and not l.startswith(b"#")]
    out, current, last = [], [], None
    for line in lines:
        m = TIME.match(line)
        if m and last is not None and m.group(1) != last and current:
            out.append(current)
            current = []
        if m:
            last = m.group(1)
        current.append(line)
    if current:
        out.append(current)
    return out


def main(argv):
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    capture, links, pace = argv[1], argv[2:4], float(argv[4]) if len(argv) > 4 else 1.0
    masters = []
    for link in links:
        master, slave = os.openpty()
        tty.setraw(slave)
        name = os.ttyname(slave)
        if os.path.lexists(link):
            os.unlink(link)
        os.symlink(name, link)
        masters.append((master, slave))
    print("feeding", " and ".join(links), flush=True)
    every = cycles(capture)
    while True:
        for cycle in every:
            start = time.monotonic()
            for master, _ in masters:
                os.write(master, b"".join(cycle))
            time.sleep(max(0.0, pace - (time.monotonic() - start)))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
