#!/usr/bin/env python3
"""The World Magnetic Model's coefficients as Swift, and the declination grid they give.

Usage:
  wmm.py swift-grid COF [YEAR]  the Swift file of the grid's nodes
                                (Sources/NMEA/Model/MagneticModel+Grid.swift, YEAR 2020)
  wmm.py swift COF              the Swift file of the model's coefficients
                                (Sources/NMEA/Model/MagneticModel+WMM2015.swift from WMM_2015.COF)
  wmm.py grid COF [YEAR]        the 5-degree grid of declination in hundredths of a degree,
                                37 rows (latitude -90 to 90) of 73 (longitude -180 to 180), at
                                YEAR (default 2020.0) and height 0 above the WGS 84 ellipsoid
  wmm.py point COF LAT LON HEIGHT_KM YEAR
                                declination and the field (north, east, down, nT) at one point

COF is NOAA's coefficient file (public domain): WMM_2015.COF is the release of 15 December 2014
(the header line says "WMM-2015 12/15/2014"; not WMM2015v2 of 2018). NOAA publishes it with the
model; the same files are in the pygeomag package (`pip download --no-deps pygeomag`, under
pygeomag/wmm/).

The evaluation here is the one MagneticModel.swift does (Schmidt semi-normalised Legendre
functions by recursion, regular at the poles; geodetic to geocentric on WGS 84; the field
turned back to the geodetic frame), so the grid it prints is the one gpsfix builds at first
use. With WMM_2015.COF at 2020.0 every one of its 2701 nodes equals the table gpsd carries
(geoid.c's magvar[][], made with GeographicLib's MagneticField from the same model and date).
Standard library only.
"""
import math
import sys

# WGS 84, and the model's reference radius (the geomagnetic reference sphere), in metres.
A = 6378137.0
F = 1 / 298.257223563
E2 = F * (2 - F)
RADIUS = 6371200.0


def read_cof(path):
    """(name, epoch, release date, [(n, m, g, h, gdot, hdot)]) from a .COF file."""
    with open(path) as f:
        lines = f.read().splitlines()
    head = lines[0].split()
    epoch, name, released = float(head[0]), head[1], head[2]
    rows = []
    for line in lines[1:]:
        parts = line.split()
        if len(parts) < 6 or parts[0].startswith("9999"):
            break
        n, m = int(parts[0]), int(parts[1])
        rows.append((n, m) + tuple(float(p) for p in parts[2:6]))
    return name, epoch, released, rows


def sincosd(x):
    """sin and cos of x degrees, exact at multiples of 90 (cos 90 is +0)."""
    r = math.fmod(x, 360.0)
    q = int(round(r / 90.0))
    r -= 90 * q
    s, c = math.sin(math.radians(r)), math.cos(math.radians(r))
    return [(s, c), (c, 0 - s), (0 - s, 0 - c), (0 - c, s)][q & 3]


def field(rows, epoch, lat, lon, height, year):
    """The field (north, east, down) in nT at a geodetic point, height in metres."""
    nmax = max(r[0] for r in rows)
    dt = year - epoch
    g, h = {}, {}
    for n, m, gg, hh, gd, hd in rows:
        g[n, m], h[n, m] = gg + dt * gd, hh + dt * hd
    sphi, cphi = sincosd(lat)
    slam, clam = sincosd(lon)
    nu = A / math.sqrt(1 - E2 * sphi * sphi)
    p = (nu + height) * cphi
    z = (nu * (1 - E2) + height) * sphi
    r = math.sqrt(p * p + z * z)
    st, ct = p / r, z / r  # sine and cosine of the geocentric colatitude
    # P: Schmidt semi-normalised P(n, m); dP: its derivative in colatitude; Q: P / sin(colatitude)
    # for m >= 1, which is regular at the poles.
    P, dP, Q = {(0, 0): 1.0}, {(0, 0): 0.0}, {}
    for n in range(1, nmax + 1):
        k = 1.0 if n == 1 else math.sqrt((2 * n - 1) / (2 * n))
        P[n, n] = k * st * P[n - 1, n - 1]
        dP[n, n] = k * (ct * P[n - 1, n - 1] + st * dP[n - 1, n - 1])
        Q[n, n] = 1.0 if n == 1 else k * st * Q[n - 1, n - 1]
        for m in range(n):
            a = (2 * n - 1) / math.sqrt(n * n - m * m)
            b = math.sqrt(((n - 1) ** 2 - m * m) / (n * n - m * m)) if n - 2 >= m else 0.0
            P[n, m] = a * ct * P[n - 1, m] - (b * P[n - 2, m] if b else 0.0)
            dP[n, m] = a * (ct * dP[n - 1, m] - st * P[n - 1, m]) - (b * dP[n - 2, m] if b else 0.0)
            if m >= 1:
                Q[n, m] = a * ct * Q[n - 1, m] - (b * Q[n - 2, m] if b else 0.0)
    cm, sm = [1.0], [0.0]
    for m in range(1, nmax + 1):
        cm.append(cm[m - 1] * clam - sm[m - 1] * slam)
        sm.append(sm[m - 1] * clam + cm[m - 1] * slam)
    north = east = down = 0.0
    ratio = RADIUS / r
    power = ratio * ratio
    for n in range(1, nmax + 1):
        power *= ratio
        for m in range(n + 1):
            cosine_part = g[n, m] * cm[m] + h[n, m] * sm[m]
            north += power * cosine_part * dP[n, m]
            if m:
                east += power * m * (g[n, m] * sm[m] - h[n, m] * cm[m]) * Q[n, m]
            down -= (n + 1) * power * cosine_part * P[n, m]
    # From the geocentric frame to the geodetic one: turned by the difference of the latitudes.
    spsi = ct * cphi - st * sphi
    cpsi = st * cphi + ct * sphi
    return north * cpsi - down * spsi, east, north * spsi + down * cpsi


def declination(rows, epoch, lat, lon, height, year):
    north, east, _ = field(rows, epoch, lat, lon, height, year)
    return math.degrees(math.atan2(east, north))


def swift(path):
    name, epoch, released, rows = read_cof(path)
    ident = name.replace("-", "").lower()
    out = []
    out.append("// Generated by Tools/wmm/wmm.py swift %s: do not edit." % path.rsplit("/", 1)[-1])
    out.append("// NOAA's %s coefficients (released %s), public domain." % (name, released))
    out.append("")
    out.append("extension WorldMagneticModel {")
    out.append("    /// %s: NOAA and the British Geological Survey's model for %g to %g, as released on"
               % (name.replace("-", ""), epoch, epoch + 5))
    out.append("    /// %s%s, degree and order %d."
               % (released, " (its first release, not the 2018 WMM2015v2)" if name == "WMM-2015" else "",
                  max(r[0] for r in rows)))
    out.append("    package static let %s = WorldMagneticModel(name: \"%s\", epoch: %.1f, coefficients: ["
               % (ident, name.replace("-", ""), epoch))
    out.append("        // n, m: g, h (nT), and their yearly change (nT a year), as the .COF's lines")
    for n, m, g, h, gd, hd in rows:
        out.append("        .init(%d, %d, %.1f, %.1f, %.1f, %.1f)," % (n, m, g, h, gd, hd))
    out.append("    ])")
    out.append("}")
    print("\n".join(out))


def grid(path, year):
    _, epoch, _, rows = read_cof(path)
    for lat in range(-90, 91, 5):
        values = [round(declination(rows, epoch, lat, lon, 0.0, year) * 100) for lon in range(-180, 181, 5)]
        print("%4d: %s" % (lat, " ".join("%6d" % v for v in values)))


def swift_grid(path, year):
    name, epoch, _, rows = read_cof(path)
    out = []
    out.append("// Generated by Tools/wmm/wmm.py swift-grid %s %g: do not edit." % (path.rsplit("/", 1)[-1], year))
    out.append("// %s's declination at %g, height 0, every 5 degrees, in hundredths of a degree." % (name.replace("-", ""), year))
    out.append("")
    out.append("extension MagneticModel {")
    out.append("    /// The grid's nodes, hundredths of a degree, row by row from latitude -90, each row from")
    out.append("    /// longitude -180: the model evaluated when this file was generated, kept as data so that")
    out.append("    /// no process spends the few milliseconds of evaluating it (`MagneticModelTests` checks")
    out.append("    /// every node against the model).")
    out.append("    static let nodes: [Int16] = [")
    for lat in range(-90, 91, 5):
        values = [round(declination(rows, epoch, lat, lon, 0.0, year) * 100) for lon in range(-180, 181, 5)]
        out.append("        // %d" % lat)
        for i in range(0, len(values), 12):
            out.append("        " + " ".join("%d," % v for v in values[i:i + 12]))
    out.append("    ]")
    out.append("}")
    print("\n".join(out))


def main(argv):
    if len(argv) >= 3 and argv[1] == "swift-grid":
        swift_grid(argv[2], float(argv[3]) if len(argv) > 3 else 2020.0)
    elif len(argv) >= 3 and argv[1] == "swift":
        swift(argv[2])
    elif len(argv) >= 3 and argv[1] == "grid":
        grid(argv[2], float(argv[3]) if len(argv) > 3 else 2020.0)
    elif len(argv) == 7 and argv[1] == "point":
        _, epoch, _, rows = read_cof(argv[2])
        lat, lon, km, year = (float(x) for x in argv[3:7])
        north, east, down = field(rows, epoch, lat, lon, km * 1000, year)
        print("D %.4f  X %.1f  Y %.1f  Z %.1f" % (math.degrees(math.atan2(east, north)), north, east, down))
    else:
        sys.stderr.write(__doc__)
        return 64
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
