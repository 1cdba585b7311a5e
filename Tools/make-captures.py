#!/usr/bin/env python3
"""Writes gpsfix's own NMEA 0183 captures into Captures/ (gpsfake format).

    python3 Tools/make-captures.py [OUTPUT_DIR]

Every capture is synthesised here from a small model (a route, a sky, a receiver's
sentence order); nothing is copied from any other capture. The output is
deterministic: the only randomness is `random.Random` with a fixed seed per file, so
running the tool twice gives byte-identical files.

Each file starts with gpsfake's `#` header lines (Name, Chipset, Date, Location,
Comments) and then holds the receiver's raw bytes: NMEA sentences with correct `*hh`
checksums and CR LF endings, except where a capture exists to show something else
(noisy-line.nmea mixes in damage on purpose).

The captures, and what the tests in Tests/NMEATests/CaptureTests.swift rely on:

  drive-1hz.nmea        the default capture for `make run`: 180 one-second epochs of a
                        drive through Dunedin, NZ on 2024-06-15, u-blox M8 style
                        (RMC VTG GGA GSA GSA GSV... GLL, GPS+GLONASS, NMEA 4.0).
  multignss-10hz.nmea   a 10 Hz NMEA 4.11 multi-GNSS receiver (GN RMC/GGA, one GNGSA per
                        constellation with system ID, GSV sets with signal ID) walking
                        across the Greenwich meridian from 2023-12-31 23:59:58.0 to
                        2024-01-01 00:00:02.0: 41 epochs, the date rolls day, month, year.
  cold-start.nmea       a MediaTek-style cold start: empty sentences, then time without
                        date, then RMC V with a bogus RTC date, then a 2D fix, then 3D.
  noisy-line.nmea       15 good epochs around every kind of line damage.
  quadrants.nmea        short fixes in every quadrant, on the antimeridian, near both
                        poles, below sea level and at cruising altitude, with date edge
                        cases (leap day, 1999/2000 pivot, ZDA, leap second, no date).
"""

import math
import os
import random
import sys

CRLF = b"\r\n"


# --- NMEA building blocks ---------------------------------------------------------------

def checksum(body):
    """XOR of every byte between `$` and `*`."""
    c = 0
    for b in body.encode("ascii"):
        c ^= b
    return c


def sentence(body, end=CRLF, lowercase=False):
    """`$body*hh` plus the line ending."""
    hh = "%02X" % checksum(body)
    if lowercase:
        hh = hh.lower()
    return ("$%s*%s" % (body, hh)).encode("ascii") + end


def lat_field(lat, decimals):
    """Signed degrees to `ddmm.mmmmm,N|S`."""
    return _angle(lat, 2, decimals) + ("," + ("N" if lat >= 0 else "S"))


def lon_field(lon, decimals):
    """Signed degrees to `dddmm.mmmmm,E|W`."""
    return _angle(lon, 3, decimals) + ("," + ("E" if lon >= 0 else "W"))


def _angle(value, width, decimals):
    # Round once, on the whole value in units of the last minute digit, so that minutes
    # can never print as 60.
    scale = 10 ** decimals
    units = int(round(abs(value) * 60 * scale))
    degrees, minutes = divmod(units, 60 * scale)
    whole, fraction = divmod(minutes, scale)
    text = "%0*d%02d" % (width, degrees, whole)
    if decimals:
        text += ".%0*d" % (decimals, fraction)
    return text


def hms(seconds, decimals):
    """Seconds of the day to `hhmmss.ss`; 86400 and up is a leap second (23:59:60)."""
    scale = 10 ** decimals
    units = int(round(seconds * scale))
    if units >= 86400 * scale:
        h, m, s, frac = 23, 59, 60 + (units - 86400 * scale) // scale, units % scale
    else:
        whole, frac = divmod(units, scale)
        h, rest = divmod(whole, 3600)
        m, s = divmod(rest, 60)
    text = "%02d%02d%02d" % (h, m, s)
    if decimals:
        text += ".%0*d" % (decimals, frac)
    return text


def ddmmyy(year, month, day):
    return "%02d%02d%02d" % (day, month, year % 100)


def sats_field(numbers, width=12):
    """GSA's satellite list: `width` fields, padded with empty ones."""
    fields = ["%02d" % n for n in numbers[:width]]
    return ",".join(fields + [""] * (width - len(fields)))


def gsv_set(talker, sats, signal=None):
    """One GSV set: up to four satellites per sentence, the last part unpadded.
    `sats` holds (number, elevation, azimuth, snr or None)."""
    out = []
    parts = max(1, (len(sats) + 3) // 4)
    for p in range(parts):
        chunk = sats[p * 4:(p + 1) * 4]
        fields = ["%s,%d,%d,%02d" % (talker + "GSV", parts, p + 1, len(sats))]
        for n, el, az, snr in chunk:
            fields.append("%02d,%02d,%03d,%s" % (n, el, az, "" if snr is None else "%02d" % snr))
        if signal is not None:
            fields.append("%X" % signal)
        out.append(sentence(",".join(fields)))
    return out


def header(name, chipset, date, location, comments):
    lines = ["# Name: " + name, "# Chipset: " + chipset, "# Date: " + date,
             "# Location: " + location]
    for i, c in enumerate(comments):
        lines.append(("# Comments: " if i == 0 else "#   ") + c)
    lines.append("#")
    text = "\n".join(lines) + "\n"
    # A reader that does not skip `#` lines would take a `$` or `!` here for a sentence.
    assert "$" not in text and "!" not in text, "header of %s holds a sentence start" % name
    return text.encode("ascii")


# --- geometry ----------------------------------------------------------------------------

EARTH_RADIUS = 6371008.8  # metres, mean


def move(lat, lon, distance, course):
    """Great-circle step of `distance` metres on `course` degrees true."""
    d = distance / EARTH_RADIUS
    c = math.radians(course)
    p1, l1 = math.radians(lat), math.radians(lon)
    p2 = math.asin(math.sin(p1) * math.cos(d) + math.cos(p1) * math.sin(d) * math.cos(c))
    l2 = l1 + math.atan2(math.sin(c) * math.sin(d) * math.cos(p1),
                         math.cos(d) - math.sin(p1) * math.sin(p2))
    lon2 = (math.degrees(l2) + 540) % 360 - 180
    return math.degrees(p2), lon2


KNOTS_PER_MPS = 3600 / 1852


# --- a sky that drifts slowly ------------------------------------------------------------

class Sky:
    """Satellites with an elevation/azimuth that drift over the capture and a noisy SNR."""

    def __init__(self, rng, sats):
        # sats: (number, elevation, azimuth, elevation rate deg/s, azimuth rate deg/s, snr0)
        self.rng = rng
        self.sats = sats

    def at(self, t, blocked=()):
        out = []
        for n, el, az, del_, daz, snr0 in self.sats:
            e = el + del_ * t
            a = (az + daz * t) % 360
            if e < 0:
                continue
            snr = snr0 + self.rng.randint(-2, 2)
            if n in blocked or e < 5:
                snr = None
            out.append((n, int(round(e)), int(round(a)) % 360, snr))
        return out


def used_of(sats, limit=12):
    return [n for n, el, az, snr in sats if snr is not None and snr >= 25 and el >= 10][:limit]


def dops(used):
    """Plausible DOPs falling as more satellites are used."""
    n = max(len(used), 4)
    hdop = round(0.55 + 5.2 / n ** 1.3, 2)
    vdop = round(hdop * 1.45, 2)
    pdop = round(math.hypot(hdop, vdop), 2)
    return pdop, hdop, vdop


# --- drive-1hz.nmea ----------------------------------------------------------------------

def drive_1hz():
    rng = random.Random(20240615)
    # (seconds, speed at the end in m/s, turn rate in deg/s): a drive out of central Dunedin
    # towards the harbour, with a stop at lights and a run on the motorway.
    plan = [
        (4, 0.0, 0.0),      # waiting to pull out
        (10, 13.0, 0.0),    # away up the street, 0 -> 47 km/h
        (36, 13.5, 0.0),    # cruising
        (7, 5.0, 0.0),      # slowing for a corner
        (9, 5.5, 10.0),     # right turn, 90 degrees
        (10, 12.5, 0.0),
        (22, 14.0, -2.0),   # long left-hand curve
        (8, 0.0, 0.0),      # braking for lights
        (6, 0.0, 0.0),      # stopped at the lights
        (9, 9.0, -8.0),     # left turn onto the on-ramp
        (15, 22.0, 0.0),    # merging, up to 79 km/h
        (30, 22.5, 0.7),    # motorway, gentle right-hand bend
        (14, 16.0, 0.0),    # easing off for the off-ramp
    ]
    assert sum(p[0] for p in plan) == 180

    lat, lon = -45.87538, 170.50452
    course = 33.0
    speed = 0.0
    distance = 0.0
    start = 3 * 3600 + 12 * 60 + 7  # 03:12:07 UTC = 15:12:07 NZST
    date = ddmmyy(2024, 6, 15)

    gps = Sky(rng, [
        (2, 62, 118, 0.004, 0.010, 44), (5, 21, 301, -0.003, 0.008, 38),
        (7, 9, 75, 0.005, -0.004, 31), (13, 47, 210, 0.006, 0.012, 43),
        (15, 33, 24, -0.004, 0.010, 40), (18, 12, 167, -0.006, 0.004, 33),
        (20, 75, 345, 0.002, -0.020, 46), (24, 3, 252, 0.004, 0.002, 0),
        (29, 28, 136, 0.005, 0.006, 39), (30, 17, 41, -0.002, 0.004, 35),
    ])
    glonass = Sky(rng, [
        (66, 54, 92, 0.005, 0.012, 42), (67, 18, 20, -0.003, 0.006, 34),
        (75, 36, 250, 0.004, 0.010, 40), (76, 68, 175, -0.003, 0.016, 45),
        (77, 15, 129, 0.004, 0.004, 31), (83, 8, 311, 0.002, 0.003, 27),
    ])

    out = [header(
        "drive-1hz",
        "u-blox NEO-M8N, NMEA 4.0, GPS+GLONASS, 1 Hz (synthesised by Tools/make-captures.py)",
        "2024-06-15",
        "45.875S 170.505E, Dunedin, New Zealand",
        ["A three-minute drive out of central Dunedin at 1 Hz: 180 epochs, all 3D fixes,",
         "stopping twice (course empty when stopped), speeds up to ~80 km/h.",
         "Sentence order per epoch: RMC VTG GGA GSA(GPS) GSA(GLONASS) GPGSV GLGSV GLL."])]

    t = 0
    for seconds, end_speed, turn in plan:
        start_speed = speed
        for i in range(seconds):
            # Report the state at the top of the second, then integrate through it.
            gs = gps.at(t, blocked={7} if 60 <= t < 75 else ())
            ls = glonass.at(t)
            used_gps = used_of(gs)
            used_glo = used_of(ls)
            pdop, hdop, vdop = dops(used_gps + used_glo)
            altitude = 9.0 + 38.0 * (1 - math.cos(min(distance, 2400) / 2400 * math.pi)) / 2 \
                + 0.4 * math.sin(t / 7.0)
            now = hms(start + t, 2)
            la, lo = lat_field(lat, 5), lon_field(lon, 5)
            knots = speed * KNOTS_PER_MPS
            cog = "%.2f" % course if speed > 0.15 else ""
            # u-blox reports a few mm/s of noise while stopped.
            kn = "%.3f" % (knots if speed > 0 else 0.002 + 0.001 * (t % 5))
            kmh = "%.3f" % (float(kn) * 1.852)
            out.append(sentence("GNRMC,%s,A,%s,%s,%s,%s,%s,,,A" % (now, la, lo, kn, cog, date)))
            out.append(sentence("GNVTG,%s,T,,M,%s,N,%s,K,A" % (cog, kn, kmh)))
            out.append(sentence("GNGGA,%s,%s,%s,1,%02d,%.2f,%.1f,M,7.9,M,," % (
                now, la, lo, min(12, len(used_gps) + len(used_glo)), hdop, altitude)))
            out.append(sentence("GNGSA,A,3,%s,%.2f,%.2f,%.2f" % (sats_field(used_gps), pdop, hdop, vdop)))
            out.append(sentence("GNGSA,A,3,%s,%.2f,%.2f,%.2f" % (sats_field(used_glo), pdop, hdop, vdop)))
            out.extend(gsv_set("GP", gs))
            out.extend(gsv_set("GL", ls))
            out.append(sentence("GNGLL,%s,%s,%s,A,A" % (la, lo, now)))

            # Advance through the second in ten steps, the speed changing linearly.
            speed_next = start_speed + (end_speed - start_speed) * (i + 1) / seconds
            for k in range(10):
                v = speed + (speed_next - speed) * (k + 0.5) / 10
                course = (course + turn / 10) % 360
                lat, lon = move(lat, lon, v / 10, course)
                distance += v / 10
            speed = speed_next
            t += 1
    return b"".join(out)


# --- multignss-10hz.nmea -----------------------------------------------------------------

def multignss_10hz():
    rng = random.Random(20231231)
    # A walker crossing the prime meridian at the Royal Observatory, Greenwich, heading east
    # at 1.4 m/s, as the year turns.
    lat, lon = 51.477930, -0.000040
    course = 89.5
    speed = 1.4
    start = 23 * 3600 + 59 * 60 + 58  # 23:59:58.0 UTC, 2023-12-31
    epochs = 41  # 23:59:58.0 ... 00:00:02.0 inclusive, every 0.1 s

    gps = [(2, 24, 301, 41), (8, 52, 62, 45), (10, 12, 154, 33), (16, 71, 201, 47),
           (18, 38, 110, 43), (23, 9, 23, 30), (26, 45, 268, 44), (27, 19, 319, 37)]
    gps_l2 = {2: 35, 8: 40, 16: 43, 18: 38, 26: 39}           # L2 CL, signal 6
    glonass = [(66, 33, 88, 40), (67, 61, 179, 44), (68, 22, 249, 36), (76, 14, 31, 32),
               (82, 47, 300, 42)]
    galileo = [(4, 29, 47, 39), (9, 63, 128, 45), (11, 17, 219, 35), (19, 41, 287, 42),
               (36, 8, 96, 28)]
    galileo_e5b = {4: 37, 9: 44, 19: 40}                      # E5b, signal 2
    beidou = [(12, 21, 84, 35), (21, 58, 151, 43), (26, 34, 233, 39), (29, 11, 316, 31)]

    def noisy(sats, extra=None):
        out = []
        for n, el, az, snr in sats:
            s = (extra.get(n) if extra is not None else snr)
            out.append((n, el, az, None if s is None else s + rng.randint(-1, 1)))
        return out

    def used(sats):
        return [n for n, el, az, snr in sats if el >= 10]

    out = [header(
        "multignss-10hz",
        "u-blox ZED-F9P style, NMEA 4.11, GPS+GLONASS+Galileo+BeiDou, 10 Hz "
        "(synthesised by Tools/make-captures.py)",
        "2023-12-31",
        "51.4779N 0.0000E, Royal Observatory, Greenwich, UK",
        ["41 epochs at 10 Hz from 2023-12-31 23:59:58.0 to 2024-01-01 00:00:02.0 UTC:",
         "the RMC date rolls over day, month and year at 00:00:00.0. A walker crosses",
         "the prime meridian eastwards (longitude W, then E). Per epoch: GNRMC (with",
         "navigational status) GNVTG GNGGA, four GNGSA with system IDs 1-4, GSV sets",
         "with signal IDs once a second (GPS L1+L2, GLONASS L1, Galileo E1+E5b,",
         "BeiDou B1I), GNGLL."])]

    for k in range(epochs):
        tenths = start * 10 + k
        seconds = tenths / 10.0
        day = (2023, 12, 31) if tenths < 86400 * 10 else (2024, 1, 1)
        tod = seconds if tenths < 86400 * 10 else seconds - 86400
        now = hms(tod, 2)
        date = ddmmyy(*day)
        la, lo = lat_field(lat, 7), lon_field(lon, 7)
        kn = "%.3f" % (speed * KNOTS_PER_MPS)
        kmh = "%.3f" % (speed * 3.6)
        cog = "%.2f" % course
        all_used = used(gps) + used(glonass) + used(galileo) + used(beidou)
        out.append(sentence("GNRMC,%s,A,%s,%s,%s,%s,%s,,,A,V" % (now, la, lo, kn, cog, date)))
        out.append(sentence("GNVTG,%s,T,,M,%s,N,%s,K,A" % (cog, kn, kmh)))
        out.append(sentence("GNGGA,%s,%s,%s,1,%02d,0.52,46.3,M,45.9,M,," % (now, la, lo, len(all_used))))
        for system, sats in ((1, gps), (2, glonass), (3, galileo), (4, beidou)):
            out.append(sentence("GNGSA,A,3,%s,0.94,0.52,0.78,%d" % (sats_field(used(sats)), system)))
        if k % 10 == 0:
            out.extend(gsv_set("GP", noisy(gps), signal=1))
            out.extend(gsv_set("GP", noisy([s for s in gps if s[0] in gps_l2], gps_l2), signal=6))
            out.extend(gsv_set("GL", noisy(glonass), signal=1))
            out.extend(gsv_set("GA", noisy(galileo), signal=7))
            out.extend(gsv_set("GA", noisy([s for s in galileo if s[0] in galileo_e5b], galileo_e5b), signal=2))
            out.extend(gsv_set("GB", noisy(beidou), signal=1))
        out.append(sentence("GNGLL,%s,%s,%s,A,A" % (la, lo, now)))
        lat, lon = move(lat, lon, speed / 10, course)
    return b"".join(out)


# --- cold-start.nmea ---------------------------------------------------------------------

def cold_start():
    rng = random.Random(1624)
    # A MediaTek-style module on a window sill in Boulder, Colorado; geoid below ellipsoid.
    home_lat, home_lon, home_alt = 40.015012, -105.270546, 1624.0
    date = ddmmyy(2024, 11, 5)
    t0 = 17 * 3600 + 41 * 60 + 3  # first second with a time: 17:41:03 UTC

    out = [header(
        "cold-start",
        "MediaTek MT3339 style, NMEA 3.01, GPS only, 1 Hz (synthesised by Tools/make-captures.py)",
        "2024-11-05",
        "40.0150N 105.2705W, Boulder, Colorado, USA",
        ["A cold start, one epoch a second, order GGA GSA GSV RMC VTG:",
         "  5 epochs with every field empty (no time, no position),",
         "  5 epochs with a time but no date (RMC V, date field empty), GSA mode 1,",
         "  5 epochs of RMC V carrying the module's bogus RTC date 06-01-1980,",
         "  3 epochs of a 2D fix (GSA mode 2, 3 satellites, GGA altitude empty),",
         "  20 epochs of 3D fixes as satellites are added.",
         "The first real date is 2024-11-05; altitude 1624 m, geoid separation -16.8 m."])]

    sky = [(4, 63, 41), (9, 27, 307), (16, 48, 252), (26, 38, 93), (27, 19, 160),
           (29, 11, 211), (31, 52, 148), (3, 8, 12)]

    def gsv(acquired, snr_base):
        """The sky, with an SNR for the satellites in `acquired` only."""
        sats = []
        for n, el, az in sky:
            if n in acquired:
                sats.append((n, el, az, snr_base + (n % 7) + rng.randint(-1, 1)))
            else:
                sats.append((n, el, az, None))
        return gsv_set("GP", sats)

    epoch = 0
    # Phase 1: nothing known at all.
    for _ in range(5):
        out.append(sentence("GPGGA,,,,,,0,00,,,M,,M,,"))
        out.append(sentence("GPGSA,A,1,,,,,,,,,,,,,,,"))
        out.append(sentence("GPGSV,1,1,00"))
        out.append(sentence("GPRMC,,V,,,,,,,,,,N"))
        out.append(sentence("GPVTG,,T,,M,,N,,K,N"))
        epoch += 1
    # Phase 2: time from the first subframes, no date yet.
    t = t0
    for i in range(5):
        now = hms(t, 3)
        out.append(sentence("GPGGA,%s,,,,,0,00,,,M,,M,," % now))
        out.append(sentence("GPGSA,A,1,,,,,,,,,,,,,,,"))
        out.extend(gsv([4, 16, 31][:1 + i // 2], 18 + 2 * i))
        out.append(sentence("GPRMC,%s,V,,,,,,,,,,N" % now))
        out.append(sentence("GPVTG,,T,,M,,N,,K,N"))
        t += 1
    # Phase 3: the module's RTC date, still no fix.
    for i in range(5):
        now = hms(t, 3)
        out.append(sentence("GPGGA,%s,,,,,0,02,,,M,,M,," % now))
        out.append(sentence("GPGSA,A,1,,,,,,,,,,,,,,,"))
        out.extend(gsv([4, 16, 31], 26 + i))
        out.append(sentence("GPRMC,%s,V,,,,,,,060180,,,N" % now))
        out.append(sentence("GPVTG,,T,,M,,N,,K,N"))
        t += 1
    # Phase 4: a 2D fix on three satellites.
    for i in range(3):
        now = hms(t, 3)
        lat = home_lat + 0.00021 - 0.00006 * i
        lon = home_lon - 0.00017 + 0.00005 * i
        la, lo = lat_field(lat, 4), lon_field(lon, 4)
        out.append(sentence("GPGGA,%s,%s,%s,1,03,4.71,,M,-16.8,M,," % (now, la, lo)))
        out.append(sentence("GPGSA,A,2,04,16,31,,,,,,,,,,4.82,4.71,1.00"))
        out.extend(gsv([4, 16, 31], 32))
        out.append(sentence("GPRMC,%s,A,%s,%s,0.31,,%s,,,A" % (now, la, lo, date)))
        out.append(sentence("GPVTG,,T,,M,0.31,N,0.57,K,A"))
        t += 1
    # Phase 5: 3D, converging on the true position.
    order = [4, 16, 31, 26, 9, 27, 29]
    for i in range(20):
        now = hms(t, 3)
        n = min(4 + i // 3, 7)
        err = 6.0 / (1 + i)
        lat = home_lat + err * 0.00001 * math.cos(i)
        lon = home_lon + err * 0.000013 * math.sin(i)
        alt = home_alt + err * math.sin(i * 0.7)
        la, lo = lat_field(lat, 4), lon_field(lon, 4)
        used = order[:n]
        pdop, hdop, vdop = dops(used)
        out.append(sentence("GPGGA,%s,%s,%s,1,%02d,%.2f,%.1f,M,-16.8,M,," % (now, la, lo, n, hdop, alt)))
        out.append(sentence("GPGSA,A,3,%s,%.2f,%.2f,%.2f" % (sats_field(used), pdop, hdop, vdop)))
        out.extend(gsv(used, 36))
        out.append(sentence("GPRMC,%s,A,%s,%s,0.%02d,,%s,,,A" % (now, la, lo, 10 + i % 7, date)))
        out.append(sentence("GPVTG,,T,,M,0.%02d,N,0.%02d,K,A" % (10 + i % 7, int((10 + i % 7) * 1.852))))
        t += 1
    return b"".join(out)


# --- noisy-line.nmea ---------------------------------------------------------------------

def ubx_packet(cls, mid, payload):
    """A u-blox UBX frame with its Fletcher checksum."""
    body = bytes([cls, mid, len(payload) & 0xFF, len(payload) >> 8]) + payload
    a = b = 0
    for x in body:
        a = (a + x) & 0xFF
        b = (b + a) & 0xFF
    return b"\xb5\x62" + body + bytes([a, b])


def sirf_packet(payload):
    """A SiRF binary frame: A0 A2, length, payload, 15-bit checksum, B0 B3."""
    cs = sum(payload) & 0x7FFF
    return b"\xa0\xa2" + len(payload).to_bytes(2, "big") + payload + cs.to_bytes(2, "big") + b"\xb0\xb3"


def noisy_line():
    # A receiver on a harbour ferry in Hamburg, heading west along the Elbe at ~3 m/s.
    lat, lon = 53.545120, 9.966340
    course, speed = 268.0, 3.1
    date = ddmmyy(2024, 3, 14)
    start = 12 * 3600  # 12:00:00

    def epoch(i, lowercase=False, end=CRLF, gga_without_checksum=False, corrupt_gga=False):
        la, lo = lat_field(positions[i][0], 4), lon_field(positions[i][1], 4)
        now = hms(start + i, 2)
        rmc = sentence("GPRMC,%s,A,%s,%s,6.03,%.1f,%s,,,A" % (now, la, lo, course, date), end, lowercase)
        gga_body = "GPGGA,%s,%s,%s,1,08,1.10,%.1f,M,40.3,M,," % (now, la, lo, 3.0 + 0.1 * i)
        if gga_without_checksum:
            gga = ("$" + gga_body).encode("ascii") + end
        elif corrupt_gga:
            # Line noise turned the HDOP's 1.10 into 1.70; the checksum is the original's.
            good = sentence(gga_body, end)
            gga = good.replace(b",1.10,", b",1.70,", 1)
            assert gga != good
        else:
            gga = sentence(gga_body, end, lowercase)
        gsa = sentence("GPGSA,A,3,05,07,13,15,18,20,24,30,,,,,1.90,1.10,1.55", end, lowercase)
        return rmc, gga, gsa

    positions = []
    p = (lat, lon)
    for i in range(16):
        positions.append(p)
        p = move(p[0], p[1], speed, course)

    # A UBX NAV-PVT-sized packet and a SiRF Geodetic-Navigation-sized packet. The payloads
    # are built to hold no `$` or `!`: a binary `$` would open a sentence (and be counted as
    # a truncated one), which would make the statistics below depend on chance.
    ubx = ubx_packet(0x01, 0x07, bytes((17 * k + 3) % 256 for k in range(92)).replace(b"$", b"#").replace(b"!", b"#"))
    sirf = sirf_packet(bytes([0x29]) + bytes((29 * k + 11) % 256 for k in range(90)).replace(b"$", b"#").replace(b"!", b"#"))
    for packet in (ubx, sirf):
        assert b"$" not in packet and b"!" not in packet

    overlong = sentence("PUBX,03,22," + ",".join(
        "%d,U,%03d,%02d,%02d,064" % (n, (n * 37) % 360, (n * 13) % 90, 30 + n % 15)
        for n in (2, 5, 7, 13, 15, 18, 20, 24, 30, 65, 66, 72, 73, 80, 81, 87, 88, 120, 123, 126, 127, 136)))
    assert len(overlong) - 2 > 128 and b"!" not in overlong[1:] and b"$" not in overlong[1:]

    out = [header(
        "noisy-line",
        "generic NMEA 3.0 GPS, 1 Hz, over a noisy serial line (synthesised by Tools/make-captures.py)",
        "2024-03-14",
        "53.5451N 9.9663E, Hamburg, Germany",
        ["15 good epochs (RMC GGA GSA, 12:00:00 to 12:00:14) with damage between and in them:",
         "  epoch 0: a text banner before it;",
         "  epoch 1: a GSV with a bad checksum between RMC and GGA;",
         "  epoch 2: all three sentences with lowercase hex checksums (valid);",
         "  epoch 3: the GGA without any checksum (accepted);",
         "  epoch 4: a GLL cut short by the start of the RMC (glued);",
         "  epoch 5: NUL padding, and a VTG cut by a NUL byte;",
         "  epoch 6: a UBX NAV-PVT packet between GGA and GSA;",
         "  epoch 7: a SiRF binary packet between RMC and GGA;",
         "  epoch 8: an overlong PUBX,03 line (>128 bytes) after the GSA;",
         "  epoch 9: LF-only line endings;",
         "  epoch 10: CR-only line endings;",
         "  epoch 11: a GLL cut inside its checksum (one hex digit, then CR LF);",
         "  epoch 12: a GSV cut mid-line by a UBX packet;",
         "  epoch 13: the GGA corrupted by line noise (bad checksum; RMC and GSA still good);",
         "  epoch 14: clean;",
         "and the file ends inside an RMC (no terminator).",
         "Expected: 15 fixes; bad checksums 2, truncated 4 (glued, NUL, binary, end of file),",
         "overlong 1, malformed 1, without checksum 1."])]

    banner = (b"\r\nGPS receiver firmware 2.4.1 (build 2019-05-03)\r\n"
              b"Copyright (c) 2019. All rights reserved.\r\nNMEA 0183 v3.0 output at 9600 baud\r\n")
    for i in range(15):
        if i == 0:
            out.append(banner)
            out.extend(epoch(i))
        elif i == 1:
            rmc, gga, gsa = epoch(i)
            bad = bytearray(sentence("GPGSV,1,1,03,05,41,112,38,07,22,287,31,13,63,201,44"))
            bad[-4:-2] = b"%02X" % (int(bad[-4:-2], 16) ^ 0x21)  # a wrong checksum
            out.extend([rmc, bytes(bad), gga, gsa])
        elif i == 2:
            rmc, gga, gsa = epoch(i, lowercase=True)
            out.extend([rmc, gga, gsa])
        elif i == 3:
            out.extend(epoch(i, gga_without_checksum=True))
        elif i == 4:
            rmc, gga, gsa = epoch(i)
            la, lo = lat_field(positions[i][0], 4), lon_field(positions[i][1], 4)
            glued = ("$GPGLL,%s,%s,12000" % (la, lo)).encode("ascii")
            out.extend([glued + rmc, gga, gsa])
        elif i == 5:
            rmc, gga, gsa = epoch(i)
            vtg = sentence("GPVTG,%.1f,T,,M,6.03,N,11.17,K,A" % course)
            cut = vtg[:12] + b"\x00" + vtg[12:]
            out.extend([rmc, b"\x00" * 6, gga, cut, gsa])
        elif i == 6:
            rmc, gga, gsa = epoch(i)
            out.extend([rmc, gga, ubx, gsa])
        elif i == 7:
            rmc, gga, gsa = epoch(i)
            out.extend([rmc, sirf, gga, gsa])
        elif i == 8:
            out.extend(epoch(i))
            out.append(overlong)
        elif i == 9:
            out.extend(epoch(i, end=b"\n"))
        elif i == 10:
            out.extend(epoch(i, end=b"\r"))
        elif i == 11:
            rmc, gga, gsa = epoch(i)
            la, lo = lat_field(positions[i][0], 4), lon_field(positions[i][1], 4)
            gll = sentence("GPGLL,%s,%s,%s,A,A" % (la, lo, hms(start + i, 2)))
            out.extend([rmc, gga, gll[:-3] + CRLF, gsa])
        elif i == 12:
            rmc, gga, gsa = epoch(i)
            gsv = sentence("GPGSV,2,1,08,05,41,112,38,07,22,287,31,13,63,201,44,15,12,054,29")
            out.extend([rmc, gga, gsv[:30] + ubx, gsa])
        elif i == 13:
            out.extend(epoch(i, corrupt_gga=True))
        else:
            out.extend(epoch(i))
    la = lat_field(positions[15][0], 4)
    out.append(("$GPRMC,%s,A,%s" % (hms(start + 15, 2), la[:5])).encode("ascii"))
    data = b"".join(out)
    # The lowercase epoch must really contain a lowercase hex letter, or it shows nothing.
    lower = b"".join(epoch(2, lowercase=True))
    assert any(c in b"abcdef" for line in lower.split(CRLF) if b"*" in line
               for c in line.split(b"*")[1]), "no lowercase hex letter in epoch 2"
    return data


# --- quadrants.nmea ----------------------------------------------------------------------

def quadrants():
    out = [header(
        "quadrants",
        "generic NMEA 3.0 GPS, 1 Hz (synthesised by Tools/make-captures.py)",
        "various",
        "around the world",
        ["Short stretches, in this order (times UTC):",
         "  A no date source: GGA+GSA only, aircraft over the North Atlantic at 11000 m",
         "    (52.0N 30.0W), 3 epochs from 14:20:00, no RMC, no ZDA;",
         "  B N/E Tokyo 35.6812N 139.7671E on the leap day 2024-02-29, RMC GGA GSA, 3 epochs;",
         "  C N/W New York 40.7484N 73.9857W across Y2K: 1999-12-31 23:59:58, 59 (RMC 311299),",
         "    2000-01-01 00:00:00, 01 (RMC 010100), 4 epochs;",
         "  D S/E Sydney 33.8568S 151.2153E, date only from ZDA (2025-08-17), ZDA GGA GSA, 3 epochs;",
         "  E S/W Buenos Aires 34.6037S 58.3816W across the leap second: 2016-12-31 23:59:59,",
         "    23:59:60, 2017-01-01 00:00:00, 3 epochs;",
         "  F antimeridian, Taveuni, Fiji 16.8S: 179.9999E, 180E, 180W, 179.9999W, 2024-09-10, 4 epochs;",
         "  G near the North Pole 89.9999N 45.0E, 2024-04-15, 3 epochs;",
         "  H near the South Pole 89.9999S 139.27E, 2835 m, 2025-01-15, 3 epochs;",
         "  I Dead Sea 31.5590N 35.4732E at -430 m, 2024-05-01, 3 epochs.",
         "29 epochs, all 3D. Every epoch ends with its GSA."])]

    def epoch(time, lat, lon, alt, geoid, date=None, zda=None, rmc=True, sats=8, knots=0.0, course=None):
        now = hms(time, 2)
        la, lo = lat_field(lat, 5), lon_field(lon, 5)
        lines = []
        if zda is not None:
            y, m, d = zda
            lines.append(sentence("GPZDA,%s,%02d,%02d,%04d,00,00" % (now, d, m, y)))
        if rmc:
            lines.append(sentence("GPRMC,%s,A,%s,%s,%.2f,%s,%s,,,A" % (
                now, la, lo, knots, "" if course is None else "%.1f" % course, ddmmyy(*date))))
        lines.append(sentence("GPGGA,%s,%s,%s,1,%02d,0.90,%.1f,M,%.1f,M,," % (now, la, lo, sats, alt, geoid)))
        lines.append(sentence("GPGSA,A,3,%s,1.60,0.90,1.32" % sats_field([3, 6, 11, 14, 17, 19, 22, 28][:sats])))
        return lines

    # A: no date at all; 250 m/s on course 250.
    lat, lon = 52.0, -30.0
    for i in range(3):
        out.extend(epoch(14 * 3600 + 20 * 60 + i, lat, lon, 11000.0, 55.2, rmc=False))
        lat, lon = move(lat, lon, 250.0, 250.0)
    # B: Tokyo, leap day.
    for i in range(3):
        out.extend(epoch(3 * 3600 + 15 * 60 + i, 35.6812, 139.7671, 40.0, 36.7, date=(2024, 2, 29)))
    # C: New York across the two-digit-year pivot.
    for i, (tod, d) in enumerate([(86398, (1999, 12, 31)), (86399, (1999, 12, 31)),
                                  (0, (2000, 1, 1)), (1, (2000, 1, 1))]):
        out.extend(epoch(tod, 40.7484, -73.9857, 10.0, -32.6, date=d))
    # D: Sydney, date from ZDA only.
    for i in range(3):
        out.extend(epoch(6 * 3600 + 30 * 60 + i, -33.8568, 151.2153, 5.0, 22.4, zda=(2025, 8, 17), rmc=False))
    # E: Buenos Aires, across the leap second at the end of 2016.
    for tod, d in [(86399, (2016, 12, 31)), (86400, (2016, 12, 31)), (0, (2017, 1, 1))]:
        out.extend(epoch(tod, -34.6037, -58.3816, 25.0, 14.9, date=d))
    # F: off Taveuni, Fiji, where the 180th meridian crosses land; a boat heading east.
    for i, lon in enumerate([179.9999, 180.0, -180.0, -179.9999]):
        out.extend(epoch(22 * 3600 + 5 * 60 + i, -16.8000, lon, 12.0, 50.3, date=(2024, 9, 10),
                         knots=13.8, course=90.0))
    # G: near the North Pole, on the ice.
    for i in range(3):
        out.extend(epoch(9 * 3600 + i, 89.9999, 45.0, 2.0, 14.1, date=(2024, 4, 15)))
    # H: near the South Pole, on the plateau.
    for i in range(3):
        out.extend(epoch(20 * 3600 + i, -89.9999, 139.27, 2835.0, -29.8, date=(2025, 1, 15)))
    # I: the shore of the Dead Sea.
    for i in range(3):
        out.extend(epoch(8 * 3600 + 45 * 60 + i, 31.5590, 35.4732, -430.0, 19.6, date=(2024, 5, 1)))
    return b"".join(out)


# --- out-of-range.nmea -------------------------------------------------------------------

def out_of_range():
    """A good receiver whose sentences carry, here and there, values no receiver can mean:
    each must be read as unknown and counted, and everything else in its sentence kept."""
    bad = []   # one entry per out-of-range value written, for the header's count

    def epoch(i, lat, lon, gga=None, rmc=None, gsv=None, extra=()):
        now = hms(10 * 3600 + 30 * 60 + i, 2)
        la, lo = lat_field(lat, 5), lon_field(lon, 5)
        g = dict(sats="09", hdop="0.90", alt="42.0", lat=la, lon=lo)
        g.update(gga or {})
        r = dict(knots="5.20", course="87.5", date="100325", lat=la, lon=lo)
        r.update(rmc or {})
        v = dict(el="45", az="120", snr="40")
        v.update(gsv or {})
        lines = [sentence("GPRMC,%s,A,%s,%s,%s,%s,%s,,,A" % (now, r["lat"], r["lon"], r["knots"], r["course"], r["date"])),
                 sentence("GPGGA,%s,%s,%s,1,%s,%s,%s,M,40.1,M,," % (now, g["lat"], g["lon"], g["sats"], g["hdop"], g["alt"])),
                 sentence("GPGSA,A,3,03,06,11,14,17,19,22,28,30,,,,1.60,0.90,1.32"),
                 sentence("GPGSV,1,1,03,03,%s,%s,%s,06,30,200,38,11,12,310,33" % (v["el"], v["az"], v["snr"]))]
        lines.extend(sentence(x % {"now": now}) for x in extra)
        return lines

    out = [header(
        "out-of-range",
        "generic NMEA 3.0 GPS, 1 Hz (synthesised by Tools/make-captures.py)",
        "2025-03-10",
        "60.39N 5.32E, off Bergen, Norway",
        ["Six 3D epochs at 1 Hz, 10:30:00-10:30:05, heading east at 5.2 kn. From the second on,",
         "sentences carry values out of their physical range: satellites used 2140 and -4, HDOP",
         "-1.2 and 0, course 857.7 and 400, speed -3.5 kn, elevation 149, azimuth 362, SNR 521,",
         "minutes of latitude 95, longitude 181 degrees, ZDA years 20180 and 2018000000.",
         "A reader keeps each such value out of its reports, counts it, and keeps the rest.",
         "OUT-OF-RANGE-COUNT"])]
    lat, lon = 60.39, 5.32
    for i in range(6):
        gga, rmc, gsv, extra = {}, {}, {}, []
        if i == 1:
            gga = dict(sats="2140", hdop="-1.2"); bad += ["sats", "hdop"]
            rmc = dict(course="857.7", knots="-3.5"); bad += ["course", "speed"]
            gsv = dict(el="149", az="362", snr="521"); bad += ["el", "az", "snr"]
        if i == 2:
            gga = dict(sats="-4"); bad += ["sats"]
            extra = ["GPZDA,%(now)s,10,03,20180,00,00"]; bad += ["year"]
        if i == 3:
            gga = dict(lat="6095.12340,N"); bad += ["minutes"]
            extra = ["GPVTG,400.0,T,,M,5.20,N,9.63,K,A", "GPZDA,%(now)s,10,03,2018000000,00,00"]; bad += ["course", "year"]
        if i == 4:
            gga = dict(hdop="0.00", lon="18100.00000,E"); bad += ["hdop", "longitude"]
        out.extend(epoch(i, lat, lon, gga, rmc, gsv, extra))
        lat, lon = move(lat, lon, 5.2 * 1852 / 3600, 87.5)
    text = b"".join(out)
    return text.replace(b"OUT-OF-RANGE-COUNT", b"%d values out of range in all." % len(bad))


CAPTURES = {
    "drive-1hz.nmea": drive_1hz,
    "multignss-10hz.nmea": multignss_10hz,
    "cold-start.nmea": cold_start,
    "noisy-line.nmea": noisy_line,
    "quadrants.nmea": quadrants,
    "out-of-range.nmea": out_of_range,
}


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    target = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(here), "Captures")
    os.makedirs(target, exist_ok=True)
    for name, make in CAPTURES.items():
        data = make()
        assert len(data) < 200_000, "%s is %d bytes" % (name, len(data))
        with open(os.path.join(target, name), "wb") as f:
            f.write(data)
        print("%-22s %7d bytes" % (name, len(data)))


if __name__ == "__main__":
    main(sys.argv)
