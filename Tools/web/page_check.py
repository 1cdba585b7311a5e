#!/usr/bin/python3
"""Opens gpsfix's web page in a real headless Chromium and checks its live DOM.

Chromium is driven over its DevTools protocol (python3-websocket), so the page runs as it
does for a person: its own script, its event stream, its redraws. Against a
`gpsfix serve --replay CAPTURE --loop --http PORT` whose capture starts without a fix and
gets one (Captures/cold-start.nmea), it checks, in order:

  1. a device card with a 3D fix, its latitude and longitude (six decimals, near --lat/--lon
     when given), satellites in the sky plot and signal bars, the track's scale bar, and the
     connection indicator saying "connected";
  2. the fix lost as the capture starts again ("No fix", position blanked) and found again;
  3. a second tab showing the same device, then closed, and the first tab still receiving
     events after it;
  4. no uncaught exception and no console error in either tab.

Screenshots of the first tab (desktop, and a phone's width) are written where asked. The
result is one JSON object on stdout; the exit status is 0 when every check passed.

    /usr/bin/python3 Tools/web/page_check.py --url http://127.0.0.1:8080/ [--screenshot page.png]
        [--phone-screenshot phone.png] [--lat 40.015 --lon -105.27] [--timeout 60]
"""
import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

import websocket


class Tab:
    """One page target over its DevTools socket: commands answered by id, events kept."""

    def __init__(self, ws_url):
        self.ws = websocket.create_connection(ws_url, timeout=10, suppress_origin=True)
        self.next_id = 0
        self.errors = []
        self.send("Runtime.enable")
        self.send("Log.enable")

    def send(self, method, **params):
        self.next_id += 1
        ident = self.next_id
        self.ws.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.note(message)

    def note(self, message):
        method = message.get("method")
        if method == "Runtime.exceptionThrown":
            details = message["params"]["exceptionDetails"]
            self.errors.append(details.get("exception", {}).get("description") or details.get("text"))
        elif method == "Log.entryAdded" and message["params"]["entry"].get("level") == "error":
            self.errors.append(message["params"]["entry"].get("text"))
        elif method == "Runtime.consoleAPICalled" and message["params"].get("type") == "error":
            self.errors.append(" ".join(str(a.get("value", a.get("description"))) for a in message["params"]["args"]))

    def eval(self, expression):
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait(self, expression, timeout, what):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = self.eval(expression)
            if value:
                return value
            time.sleep(0.1)
        raise TimeoutError(f"{what}: not within {timeout} s")

    def screenshot(self, path):
        data = self.send("Page.captureScreenshot", format="png", captureBeyondViewport=False)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        self.ws.close()


# What the checks read of the first device card, as one object.
CARD = """(() => {
  const card = document.querySelector('section.device[data-device]');
  if (!card) return null;
  const field = name => { const e = card.querySelector(`[data-field="${name}"]`); return e ? e.textContent.trim() : null; };
  return {
    device: card.getAttribute('data-device'),
    mode: card.getAttribute('data-mode'),
    modeText: field('mode'),
    state: field('state'),
    lat: field('lat'), lon: field('lon'),
    satellites: card.querySelectorAll('svg.sky .sat').length,
    used: card.querySelectorAll('svg.sky .sat[data-used="true"]').length,
    bars: card.querySelectorAll('.signals .bar').length,
    scale: (card.querySelector('svg.track .scale-label') || {}).textContent || '',
    trackPoints: ((card.querySelector('svg.track polyline.path') || {getAttribute: () => ''}).getAttribute('points') || '').trim().split(/\\s+/).filter(Boolean).length,
    sentences: field('sentences'),
    connection: (document.getElementById('connection') || {}).textContent,
    events: Number(document.body.dataset.events || 0),
  };
})()"""


def devtools(chromium, profile, width, height):
    process = subprocess.Popen([chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars",
                                f"--user-data-dir={profile}", "--remote-debugging-port=0", f"--window-size={width},{height}",
                                "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    port_file = os.path.join(profile, "DevToolsActivePort")
    deadline = time.monotonic() + 30
    while not os.path.exists(port_file) or os.path.getsize(port_file) == 0:
        if time.monotonic() > deadline or process.poll() is not None:
            raise RuntimeError("chromium did not open its DevTools port")
        time.sleep(0.1)
    with open(port_file) as f:
        port = int(f.readline())
    return process, port


def new_tab(port, url):
    request = urllib.request.Request(f"http://127.0.0.1:{port}/json/new?{url}", method="PUT")
    with urllib.request.urlopen(request, timeout=10) as response:
        target = json.load(response)
    return target["id"], Tab(target["webSocketDebuggerUrl"])


def close_tab(port, ident):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/close/{ident}", timeout=10) as response:
        response.read()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True)
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    parser.add_argument("--screenshot")
    parser.add_argument("--phone-screenshot")
    parser.add_argument("--lat", type=float)
    parser.add_argument("--lon", type=float)
    parser.add_argument("--timeout", type=float, default=60)
    args = parser.parse_args()

    report = {"checks": [], "ok": False}
    profile = tempfile.mkdtemp(prefix="gpsfix-chromium-")
    process = None
    try:
        process, port = devtools(args.chromium, profile, 1280, 1000)
        first_id, first = new_tab(port, args.url)

        def passed(name, value=None):
            report["checks"].append({"check": name, "value": value})

        # 1. A 3D fix with its position, satellites, signals and track.
        card = first.wait(f"(() => {{ const c = {CARD}; return c && c.mode === '3' && c.satellites > 0 && c.scale && c.connection === 'connected' ? c : null; }})()",
                          args.timeout, "a 3D fix with satellites, a scale bar and 'connected'")
        for name in ("lat", "lon"):
            text = card[name]
            value = float(text)
            if len(text.split(".")[1]) != 6:
                raise AssertionError(f"{name} {text!r} has not six decimals")
            expected = args.lat if name == "lat" else args.lon
            if expected is not None and abs(value - expected) > 0.01:
                raise AssertionError(f"{name} {value} is not near {expected}")
        if card["bars"] != card["satellites"]:
            raise AssertionError(f"{card['bars']} signal bars for {card['satellites']} satellites")
        passed("fix", card)
        if args.screenshot:
            first.screenshot(args.screenshot)

        # 2. The capture starts again: no fix, the position blanked, then a fix again.
        lost = first.wait(f"(() => {{ const c = {CARD}; return c && c.mode === '1' ? c : null; }})()", args.timeout, "the fix lost")
        if lost["modeText"] != "No fix" or lost["lat"] != "—" or lost["lon"] != "—":
            raise AssertionError(f"without a fix the card shows {lost}")
        passed("no fix", lost)
        found = first.wait(f"(() => {{ const c = {CARD}; return c && (c.mode === '3' || c.mode === '2') && c.lat !== '—' ? c : null; }})()",
                           args.timeout, "the fix found again")
        passed("fix again", found)

        # 3. A second tab sees the same device; closing it leaves the first one receiving.
        second_id, second = new_tab(port, args.url)
        other = second.wait(f"(() => {{ const c = {CARD}; return c && c.events > 0 && c.satellites > 0 ? c : null; }})()",
                            args.timeout, "the second tab's card")
        if other["device"] != card["device"]:
            raise AssertionError(f"the second tab shows {other['device']!r}, the first {card['device']!r}")
        passed("second tab", other)
        report["errors_second"] = second.errors
        second.close()
        close_tab(port, second_id)
        before = first.eval(f"({CARD}).events")
        after = first.wait(f"(() => {{ const n = ({CARD}).events; return n > {before} + 5 ? n : 0; }})()", 10,
                           "events in the first tab after the second closed")
        passed("first tab after the second closed", {"events_before": before, "events_after": after})

        if args.phone_screenshot:
            first.send("Emulation.setDeviceMetricsOverride", width=390, height=844, deviceScaleFactor=2, mobile=True)
            time.sleep(1)
            first.screenshot(args.phone_screenshot)
            first.send("Emulation.clearDeviceMetricsOverride")

        # 4. No error in either tab.
        report["errors"] = first.errors + report["errors_second"]
        if report["errors"]:
            raise AssertionError(f"errors in the page: {report['errors']}")
        first.close()
        close_tab(port, first_id)
        report["ok"] = True
    except Exception as error:  # noqa: BLE001 - every failure is reported in the JSON
        report["failure"] = f"{type(error).__name__}: {error}"
    finally:
        if process:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(profile, ignore_errors=True)
    print(json.dumps(report))
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
