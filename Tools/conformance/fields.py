#!/usr/bin/env python3
"""Field-by-field agreement with gpsd on its regression captures (issue 19's scorer).

Usage:
  fields.py [--gpsfix BIN] [--per-capture] [--floor FILE] CAPTURE_DIR

With --floor, FILE lists "CLASS FIELD MINIMUM" lines (# starts a comment): the run fails
(exit 1), naming each, when a field's agreement is below its minimum or gpsd's captures no
longer give it any position. That is the gate .ci/run keeps, so a figure cannot fall unseen.

Runs `gpsfix watch --replay CAPTURE --json --speed max` on every NAME.log that has a
NAME.log.chk beside it and holds an NMEA position sentence (the captures conformance.sh
scores), and compares, field by field, what gpsfix reports with what gpsd reported.

A report is placed at a position: a TPV at its own (lat, lon), a SKY or an ATT at the
positions of the TPVs with a fix on either side of it (position 0 before the first fix). A SKY
or ATT belongs to the cycle it came in, whose TPV gpsd writes when the cycle ends, after a
GSV or HDT that came before the cycle's last sentence, where gpsfix, which learns the cycle's
end, writes the cycle's TPV first: placed on both sides, each is compared within its cycle. Positions closer
than 2e-6 degrees are one, as in the conformance scorer. gpsd sends several reports per
epoch as its sentences arrive, so each side keeps every value it gave a field at a position.

A field agrees at a position when gpsd reports it there and gpsfix reports a value within
1 % of one of gpsd's (and within 0.005, the last printed digit of a DOP, for values near 0).
A field's agreement is the share of gpsd's positions for it at which it agrees, pooled over
every capture, counting the positions at which gpsfix reports a fix too (for a TPV's field,
never position 0, where gpsfix has had no fix yet and gpsd's TPV has no position): a position gpsfix
does not report at all (a GGA's that gives way to the RMC of its cycle, say) is a question of
positions, which conformance.sh scores, not of this field. Those are counted in the last
column, "no fix", with the positions of a SKY where gpsfix writes none (gpsd writes a SKY
for each GSA as well as each GSV set, gpsfix one per cycle that lists satellites). The table
also says in how many captures gpsd reports the field at all.
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
POSITION = re.compile(rb"^\$(?:G[PNLAB]|BD|GQ|GI|P[A-Z]+)?(?:GGA|RMC|GLL|GNS)", re.M)
TOL = 2e-6
GRID = 1e-5

FIELDS = {
    "TPV": ["eph", "epx", "epy", "epv", "eps", "epc", "ept", "sep", "magvar", "magtrack",
            "depth", "wtemp", "wanglem", "wangler", "wanglet", "wspeedr", "wspeedt"],
    "SKY": ["gdop", "xdop", "ydop", "tdop", "hdop", "vdop", "pdop"],
    "ATT": ["heading", "pitch", "roll"],
}


def captures(folder):
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if name.endswith(".log") and os.path.exists(path + ".chk"):
            with open(path, "rb") as fh:
                if POSITION.search(fh.read()):
                    yield path


def json_lines(data):
    for raw in data.splitlines():
        raw = raw.strip()
        if not raw.startswith(b"{"):
            continue
        try:
            obj = json.loads(raw)
        except ValueError:
            continue
        if isinstance(obj, dict):
            yield obj


class Places:
    """Positions merged within TOL; `key` gives the index of the position a report is at."""

    def __init__(self):
        self.cells = {}
        self.count = 0
        self.seen = {}  # (lat, lon) -> index: the same coordinates are the same position on
        # both sides, whichever neighbour within TOL a later position put nearer in the scan

    def key(self, lat, lon):
        if (lat, lon) in self.seen:
            return self.seen[(lat, lon)]
        self.seen[(lat, lon)] = index = self._key(lat, lon)
        return index

    def _key(self, lat, lon):
        ci, cj = int(round(lat / GRID)), int(round(lon / GRID))
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                for (plat, plon, index) in self.cells.get((ci + di, cj + dj), ()):
                    if abs(plat - lat) <= TOL and abs(plon - lon) <= TOL:
                        return index
        self.count += 1
        self.cells.setdefault((ci, cj), []).append((lat, lon, self.count))
        return self.count


def values(reports, places):
    """{(class, field): {position: set(values)}} of one side's reports; the positions of its
    TPVs with a fix under the key "fixes"."""
    out = {"fixes": {0: set()}}
    here = 0  # before the first fix
    pending = []  # SKY and ATT values since the last TPV with a fix: also the next one's

    def add(key, position, v):
        out.setdefault(key, {}).setdefault(position, set()).add(v)
        if key[0] == "SKY":
            out.setdefault("skies", {}).setdefault(position, set())

    for r in reports:
        cls = r.get("class")
        if cls not in FIELDS:
            continue
        if cls == "TPV" and r.get("mode", 0) >= 2 and isinstance(r.get("lat"), (int, float)) \
                and isinstance(r.get("lon"), (int, float)):
            here = places.key(r["lat"], r["lon"])
            out["fixes"].setdefault(here, set())
            for key, v in pending:
                add(key, here, v)
            pending = []
        for field in FIELDS[cls]:
            v = r.get(field)
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                add((cls, field), here, float(v))
                if cls != "TPV":
                    pending.append(((cls, field), float(v)))
    return out


def close(a, b):
    return abs(a - b) <= max(0.01 * abs(b), 0.005)


def main(argv):
    args = argv[1:]
    binary = os.path.join(ROOT, ".build/release/gpsfix")
    per_capture = False
    floor = None
    while args and args[0].startswith("--"):
        if args[0] == "--floor" and len(args) > 1:
            floor = args[1]
            args = args[2:]
            continue
        if args[0] == "--gpsfix" and len(args) > 1:
            binary = args[1]
            args = args[2:]
        elif args[0] == "--per-capture":
            per_capture = True
            args = args[1:]
        else:
            print(__doc__, file=sys.stderr)
            return 2
    if len(args) != 1 or not os.path.isdir(args[0]):
        print(__doc__, file=sys.stderr)
        return 2
    totals = {}  # (cls, field) -> [agreeing, positions, captures, positions gpsfix has no fix at]
    for path in captures(args[0]):
        with open(path + ".chk", "rb") as fh:
            expected = list(json_lines(fh.read()))
        run = subprocess.run([binary, "watch", "--replay", path, "--json", "--speed", "max"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=60)
        actual = list(json_lines(run.stdout))
        places = Places()
        theirs = values(expected, places)
        ours = values(actual, places)
        for key, at in theirs.items():
            if key in ("fixes", "skies"):
                continue
            # Where gpsfix reports no fix at all, the position is the conformance gate's to
            # score (Tools/conformance.sh), not this field's: counted apart. So is a SKY where
            # gpsfix writes none: gpsd writes one for every GSA as well as every GSV set,
            # gpsfix one for each cycle that lists satellites.
            reported = ours.get("skies", {}) if key[0] == "SKY" else ours["fixes"]
            # Position 0 is "before the first fix": a SKY there is compared, but a TPV's field
            # there is gpsd's from a TPV with no position (a GSA's mode 3 before any position
            # sentence), where gpsfix by definition has no fix.
            shared = {pos: vs for pos, vs in at.items() if pos in reported and (pos != 0 or key[0] != "TPV")}
            agreeing = sum(1 for pos, vs in shared.items()
                           if any(close(o, t) for o in ours.get(key, {}).get(pos, ()) for t in vs))
            entry = totals.setdefault(key, [0, 0, 0, 0])
            entry[0] += agreeing
            entry[1] += len(shared)
            entry[2] += 1
            entry[3] += len(at) - len(shared)
            if per_capture:
                print(f"{os.path.basename(path):28s} {key[0]} {key[1]:9s} {agreeing:5d}/{len(shared):<5d}")
    print(f"{'class':5s} {'field':9s} {'agreement':>9s} {'positions':>9s} {'captures':>8s} {'no fix':>7s}")
    for cls, fields in FIELDS.items():
        for field in fields:
            agreeing, positions, count, unshared = totals.get((cls, field), (0, 0, 0, 0))
            if positions == 0:
                print(f"{cls:5s} {field:9s} {'-':>9s} {0:9d} {0:8d} {unshared:7d}   (gpsd reports none)")
                continue
            print(f"{cls:5s} {field:9s} {agreeing / positions:9.3f} {positions:9d} {count:8d} {unshared:7d}")
    if floor is None:
        return 0
    failures = []
    with open(floor) as fh:
        for line in fh:
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            cls, field, minimum = words[0], words[1], float(words[2])
            agreeing, positions, _, _ = totals.get((cls, field), (0, 0, 0, 0))
            if positions == 0:
                failures.append(f"{cls} {field}: no position to score (floor {minimum:.3f})")
            elif agreeing / positions < minimum:
                failures.append(f"{cls} {field}: {agreeing / positions:.3f}, below its floor {minimum:.3f}")
    for f in failures:
        print(f"fields: {f}", file=sys.stderr)
    if failures:
        print(f"fields: {len(failures)} field(s) fell: fix the regression, or lower the floor in {floor} "
              "saying why in the commit", file=sys.stderr)
        return 1
    print(f"fields: every field at or above its floor ({floor})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
