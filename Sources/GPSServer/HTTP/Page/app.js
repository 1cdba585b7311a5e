'use strict';
// gpsfix's live page: /api/now once (and after each reconnection), then /events.
// Everything a peer sends reaches the DOM through textContent or setAttribute only.

// Taken from the page's own SVG, so that no file here spells out any URL at all.
const SVGNS = document.getElementById('device-card').content.querySelector('svg').namespaceURI;
const DASH = '—';
const TRACK_MAX = 3600;      // points kept per device, so a long run's memory stays bounded
const FRAME_MS = 200;        // at most five redraws a second, however fast reports come
const K = 6371008.8 * Math.PI / 180; // metres per degree of latitude (mean Earth radius)
const TW = 320, TH = 220;    // track viewBox
const MODES = ['Unknown', 'No fix', '2D fix', '3D fix'];

// By gnssid. Letters are RINEX's (IMES has none: M here), so a label names the system without colour.
const GNSS = [
  { name: 'GPS', letter: 'G', shape: 'M-4.5,0a4.5,4.5 0 1,0 9,0a4.5,4.5 0 1,0-9,0Z' },
  { name: 'SBAS', letter: 'S', shape: 'M-1.8,-5H1.8V-1.8H5V1.8H1.8V5H-1.8V1.8H-5V-1.8H-1.8Z' },
  { name: 'Galileo', letter: 'E', shape: 'M-4,-4H4V4H-4Z' },
  { name: 'BeiDou', letter: 'C', shape: 'M0,-5.5L5.5,0L0,5.5L-5.5,0Z' },
  { name: 'IMES', letter: 'M', shape: 'M0,-5L4.3,-2.5V2.5L0,5L-4.3,2.5V-2.5Z' },
  { name: 'QZSS', letter: 'J', shape: 'M0,-5L4.8,-1.5L2.9,4L-2.9,4L-4.8,-1.5Z' },
  { name: 'GLONASS', letter: 'R', shape: 'M0,-5.5L5,4H-5Z' },
  { name: 'NavIC', letter: 'I', shape: 'M0,5.5L5,-4H-5Z' },
];
const UNKNOWN_GNSS = { name: 'Unknown system', letter: '', shape: GNSS[0].shape };

const devices = new Map();
let eventCount = 0;
let tilesURL = null;
let pageClients = null;
let pending = false;
let lastFrame = 0;

const isNum = (v) => typeof v === 'number' && Number.isFinite(v);
const fixed = (v, n) => (isNum(v) ? v.toFixed(n) : DASH);
const count = (v) => (isNum(v) ? String(v) : DASH);

function svg(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (parent) parent.append(e);
  return e;
}

function titled(node, text) {
  svg('title', null, node).textContent = text;
  return node;
}

// gpsd always sends gnssid today; older reports only had its PRN numbering to go by.
function gnssOf(s) {
  if (Number.isInteger(s.gnssid) && s.gnssid >= 0 && s.gnssid < GNSS.length) return s.gnssid;
  const p = s.PRN;
  if (p >= 1 && p <= 32) return 0;
  if ((p >= 33 && p <= 64) || (p >= 120 && p <= 158)) return 1;
  if (p >= 65 && p <= 96) return 6;
  if (p >= 193 && p <= 200) return 5;
  if ((p >= 201 && p <= 237) || (p >= 401 && p <= 437)) return 3;
  if (p >= 301 && p <= 336) return 2;
  return -1;
}

function satInfo(s) {
  const g = gnssOf(s);
  const sys = GNSS[g] || UNKNOWN_GNSS;
  const id = isNum(s.svid) && g >= 0 ? s.svid : s.PRN;
  return { g, sys, used: s.used === true, label: sys.letter + id, cls: g >= 0 ? 'g' + g : 'gx' };
}

function sortedSats(dev) {
  return dev.satellites.map((s) => ({ s, ...satInfo(s) }))
    .sort((a, b) => (a.g - b.g) || ((a.s.svid ?? a.s.PRN) - (b.s.svid ?? b.s.PRN)));
}

// ---- devices ---------------------------------------------------------------

function device(path) {
  let dev = devices.get(path);
  if (dev) return dev;
  const el = document.getElementById('device-card').content.firstElementChild.cloneNode(true);
  const id = 'device-' + (devices.size + 1);
  el.setAttribute('data-device', path);
  el.setAttribute('aria-labelledby', id);
  const h2 = el.querySelector('.path');
  h2.id = id;
  h2.textContent = path;
  const fields = {};
  for (const f of el.querySelectorAll('[data-field]')) fields[f.dataset.field] = f;
  const track = el.querySelector('svg.track');
  dev = {
    path, el, fields, track,
    sky: el.querySelector('svg.sky'),
    sats: el.querySelector('.sats'),
    legend: el.querySelector('.legend'),
    signals: el.querySelector('svg.signals'),
    tileLayer: track.querySelector('.tiles'),
    tiles: new Map(),
    legendKey: null,
    state: null, driver: '', gone: false,
    mode: 0, tpv: {}, heading: null,
    satellites: [], dop: {}, nSat: null, uSat: null,
    status: {}, fixAge: null,
    origin: null, points: [], lastTime: null,
    seq: { tpv: 0, sky: 0, status: 0 },
    dirty: new Set(['text', 'sky', 'track']),
  };
  devices.set(path, dev);
  document.getElementById('devices').append(el);
  document.getElementById('empty').hidden = true;
  return dev;
}

function applyTPV(dev, t) {
  dev.tpv = t;
  dev.mode = Number.isInteger(t.mode) && t.mode >= 0 && t.mode <= 3 ? t.mode : 0;
  if (dev.mode >= 2 && isNum(t.lat) && isNum(t.lon)) {
    addPoint(dev, t.lat, t.lon, t.time);
    dev.fixAge = { base: 0, at: performance.now() };
  }
  dev.dirty.add('text').add('track');
}

function addPoint(dev, lat, lon, time) {
  // A snapshot after a reconnection repeats the fix the events already gave.
  if (time !== undefined && time === dev.lastTime) return;
  dev.lastTime = time;
  if (!dev.origin) dev.origin = { lat, lon, cos: Math.cos(lat * Math.PI / 180) };
  const o = dev.origin;
  let dlon = lon - o.lon;
  if (dlon > 180) dlon -= 360; else if (dlon < -180) dlon += 360;
  dev.points.push({ x: dlon * K * o.cos, y: (lat - o.lat) * K });
  if (dev.points.length > TRACK_MAX) dev.points.splice(0, dev.points.length - TRACK_MAX);
}

function applySKY(dev, s) {
  if (Array.isArray(s.satellites)) {
    dev.satellites = s.satellites.filter((x) => x && isNum(x.PRN));
    dev.nSat = isNum(s.nSat) ? s.nSat : dev.satellites.length;
    dev.uSat = isNum(s.uSat) ? s.uSat : dev.satellites.filter((x) => x.used === true).length;
  } else {
    if (isNum(s.nSat)) dev.nSat = s.nSat;
    if (isNum(s.uSat)) dev.uSat = s.uSat;
  }
  for (const k of ['hdop', 'vdop', 'pdop']) if (isNum(s[k])) dev.dop[k] = s[k];
  dev.dirty.add('text').add('sky');
}

function applyStatus(dev, st) {
  dev.status = st;
  if (typeof st.state === 'string') dev.state = st.state;
  if ('fix_age' in st) dev.fixAge = isNum(st.fix_age) ? { base: st.fix_age, at: performance.now() } : null;
  if (st.clients && typeof st.clients === 'object') pageClients = st.clients;
  dev.dirty.add('text');
}

function handle(msg, seq) {
  const path = msg.class === 'DEVICE' ? msg.path : msg.device;
  if (typeof path !== 'string') return;
  const dev = device(path);
  switch (msg.class) {
    case 'TPV': applyTPV(dev, msg); dev.seq.tpv = seq; break;
    case 'SKY': applySKY(dev, msg); dev.seq.sky = seq; break;
    case 'STATUS': applyStatus(dev, msg); dev.seq.status = seq; break;
    case 'ATT':
      if (isNum(msg.heading)) dev.heading = msg.heading;
      dev.dirty.add('text');
      break;
    case 'DEVICE':
      dev.gone = msg.activated === 0 || msg.activated === false;
      if (typeof msg.driver === 'string') dev.driver = msg.driver;
      dev.dirty.add('text');
      break;
    default: break; // GST and others: the card exists, nothing of it is shown yet
  }
}

// seq guards against a snapshot that left before an event overwriting what that event said.
async function fetchNow() {
  const started = eventCount;
  let now;
  try {
    const r = await fetch('/api/now', { cache: 'no-store' });
    if (!r.ok) return;
    now = await r.json();
  } catch (e) {
    return;
  }
  if (!now || typeof now !== 'object') return;
  if (typeof now.version === 'string') document.getElementById('version').textContent = now.version;
  setTiles(typeof now.tiles === 'string' && now.tiles ? now.tiles : null);
  if (now.clients && typeof now.clients === 'object') pageClients = now.clients;
  for (const d of Array.isArray(now.devices) ? now.devices : []) {
    if (!d || typeof d.path !== 'string') continue;
    const dev = device(d.path);
    if (dev.seq.status <= started) {
      if (d.status && typeof d.status === 'object') applyStatus(dev, d.status);
      if (typeof d.state === 'string') dev.state = d.state;
    }
    if (d.activated === false) dev.gone = true;
    if (d.tpv && typeof d.tpv === 'object' && dev.seq.tpv <= started) applyTPV(dev, d.tpv);
    if (d.sky && typeof d.sky === 'object' && dev.seq.sky <= started) applySKY(dev, d.sky);
    dev.dirty.add('text');
  }
  schedule();
}

function setTiles(url) {
  if (url === tilesURL) return;
  tilesURL = url;
  for (const dev of devices.values()) dev.dirty.add('track');
}

// ---- rendering -------------------------------------------------------------

function schedule() {
  if (pending) return;
  pending = true;
  const wait = Math.max(0, lastFrame + FRAME_MS - performance.now());
  setTimeout(() => requestAnimationFrame(flush), wait);
}

function flush() {
  pending = false;
  lastFrame = performance.now();
  for (const dev of devices.values()) {
    if (dev.dirty.has('text')) renderText(dev);
    if (dev.dirty.has('sky')) { renderSky(dev); renderSignals(dev); }
    if (dev.dirty.has('track')) renderTrack(dev);
    dev.dirty.clear();
  }
  // Set last, so a test that sees this count also sees the DOM it produced.
  document.body.dataset.events = String(eventCount);
}

function setField(dev, name, text) {
  const el = dev.fields[name];
  if (!el) return;
  if (el.textContent !== text) el.textContent = text;
  // An unknown value hides its unit ("—", not "— m"); only a value's own <dd> says so.
  if (el.parentElement.tagName === 'DD') el.parentElement.classList.toggle('empty', text === DASH);
}

function showRow(dev, key, shown) {
  dev.el.querySelector(`[data-show="${key}"]`).hidden = !shown;
}

function fixTime(t) {
  if (typeof t === 'string') return t.replace('T', ' ').replace(/Z$/, '').replace(/\.0+$/, '');
  if (isNum(t)) return fixTime(new Date(t * 1000).toISOString());
  return DASH;
}

function renderText(dev) {
  const t = dev.tpv, m = dev.mode, st = dev.status;
  const pos = m >= 2 && isNum(t.lat) && isNum(t.lon);
  dev.el.setAttribute('data-mode', String(m));
  setField(dev, 'mode', MODES[m]);
  setField(dev, 'state', dev.state || DASH);
  dev.fields.state.setAttribute('data-value', dev.state || '');
  setField(dev, 'driver', dev.driver);
  dev.el.querySelector('.gone').hidden = !dev.gone;
  dev.el.classList.toggle('is-gone', dev.gone);

  // A TPV is a whole report: what it leaves out is unknown now, not what it was before.
  setField(dev, 'lat', pos ? t.lat.toFixed(6) : DASH);
  setField(dev, 'lat_hemi', pos ? (t.lat < 0 ? 'S' : 'N') : '');
  setField(dev, 'lon', pos ? t.lon.toFixed(6) : DASH);
  setField(dev, 'lon_hemi', pos ? (t.lon < 0 ? 'W' : 'E') : '');
  setField(dev, 'alt', m >= 3 ? fixed(isNum(t.altMSL) ? t.altMSL : t.alt, 1) : DASH);
  setField(dev, 'speed', m >= 2 ? fixed(t.speed, 2) : DASH);
  setField(dev, 'speed_kmh', m >= 2 && isNum(t.speed) ? (t.speed * 3.6).toFixed(1) : '');
  setField(dev, 'course', m >= 2 ? fixed(t.track, 1) : DASH);
  setField(dev, 'eph', m >= 2 ? fixed(t.eph, 1) : DASH);
  setField(dev, 'epv', m >= 3 ? fixed(t.epv, 1) : DASH);
  setField(dev, 'time', fixTime(t.time));
  showRow(dev, 'heading', dev.heading !== null);
  setField(dev, 'heading', fixed(dev.heading, 1));

  for (const k of ['sentences', 'bad_checksums', 'malformed', 'epochs', 'fixes']) setField(dev, k, count(st[k]));
  renderAge(dev);
  for (const k of ['hdop', 'vdop', 'pdop']) setField(dev, k, fixed(dev.dop[k], 2));
  setField(dev, 'sats_used', count(dev.uSat));
  setField(dev, 'sats_seen', count(dev.nSat));
  showRow(dev, 'time_offset', isNum(st.time_offset));
  setField(dev, 'time_offset', isNum(st.time_offset) ? (st.time_offset * 1000).toFixed(1) : DASH);
  const c = st.clients && typeof st.clients === 'object' ? st.clients : pageClients;
  setField(dev, 'clients', c ? Object.entries(c).map(([k, v]) => `${k} ${v}`).join(', ') : DASH);
}

// Ticks between reports: the age grows on its own while nothing new arrives.
function renderAge(dev) {
  if (!dev.fixAge) { setField(dev, 'fix_age', DASH); return; }
  const age = dev.fixAge.base + (performance.now() - dev.fixAge.at) / 1000;
  setField(dev, 'fix_age', age.toFixed(age < 100 ? 1 : 0));
}

function renderSky(dev) {
  const sats = sortedSats(dev);
  const g = dev.sats;
  g.replaceChildren();
  let unplaced = 0;
  for (const x of sats) {
    const s = x.s;
    const placed = isNum(s.el) && isNum(s.az);
    let px, py;
    if (placed) {
      const r = (90 - Math.min(90, Math.max(0, s.el))) / 90 * 100;
      const a = s.az * Math.PI / 180;
      px = r * Math.sin(a);
      py = -r * Math.cos(a);
    } else {
      // Heard but not placed in the sky: a row under the plot, so every satellite appears.
      px = -100 + (unplaced % 12) * 18;
      py = 138 + Math.floor(unplaced / 12) * 16;
      unplaced++;
    }
    const node = svg('g', {
      class: 'sat ' + x.cls, 'data-prn': s.PRN, 'data-gnss': x.g >= 0 ? x.g : '',
      'data-used': x.used, transform: `translate(${px.toFixed(1)},${py.toFixed(1)})`,
    }, g);
    titled(node, `${x.sys.name} ${x.label} (PRN ${s.PRN})` +
      (placed ? `, elevation ${s.el}°, azimuth ${s.az}°` : ', no position') +
      (isNum(s.ss) ? `, ${s.ss} dB-Hz` : '') + (x.used ? ', used' : ', not used'));
    svg('path', { d: x.sys.shape }, node);
    svg('text', { x: 6, y: -4 }, node).textContent = x.label;
  }
  if (unplaced) svg('text', { x: -118, y: 126, class: 'ring' }, g).textContent = 'No position:';
  const rows = Math.ceil(unplaced / 12);
  dev.sky.setAttribute('viewBox', `-120 -120 240 ${240 + (rows ? 24 + rows * 16 : 0)}`);
  const used = sats.filter((x) => x.used).length;
  dev.sky.setAttribute('aria-label', `Sky plot: ${used} of ${sats.length} satellites used` +
    (unplaced ? `, ${unplaced} without a position` : ''));
  renderLegend(dev, sats);
}

function renderLegend(dev, sats) {
  const present = [...new Set(sats.map((x) => x.g))].sort((a, b) => a - b);
  const key = present.join();
  if (key === dev.legendKey) return;
  dev.legendKey = key;
  const items = present.map((g) => [GNSS[g] || UNKNOWN_GNSS, g >= 0 ? 'g' + g : 'gx', '']);
  items.push([GNSS[0], 'gx', 'filled: used'], [GNSS[0], 'gx hollow', 'hollow: not used']);
  const lis = items.map(([sys, cls, text]) => {
    const li = document.createElement('li');
    const icon = svg('svg', { viewBox: '-6 -6 12 12', 'aria-hidden': 'true', class: cls }, li);
    svg('path', { d: sys.shape }, icon);
    li.append(text || `${sys.name}${sys.letter ? ' (' + sys.letter + ')' : ''}`);
    return li;
  });
  dev.legend.replaceChildren(...lis);
}

function renderSignals(dev) {
  const sats = sortedSats(dev);
  const root = dev.signals;
  root.replaceChildren();
  // The bars' height is fixed by CSS; the viewBox follows the width so text keeps its size.
  const box = root.getBoundingClientRect();
  const width = box.width && box.height ? Math.max(240, box.width * 150 / box.height) : 320;
  root.setAttribute('viewBox', `0 0 ${width.toFixed(0)} 150`);
  const left = 24, right = width - 4, top = 8, bottom = 112;
  const y = (ss) => bottom - Math.min(55, Math.max(0, ss)) / 55 * (bottom - top);
  const axis = svg('g', { class: 'axis', 'aria-hidden': 'true' }, root);
  for (let v = 0; v <= 50; v += 10) {
    svg('line', { x1: left, x2: right, y1: y(v), y2: y(v) }, axis);
    svg('text', { x: left - 3, y: y(v) + 3 }, axis).textContent = String(v);
  }
  const slot = (right - left) / Math.max(sats.length, 1);
  const w = Math.min(22, slot * 0.7);
  let best = null;
  sats.forEach((x, i) => {
    const s = x.s;
    const cx = left + slot * (i + 0.5);
    const ss = isNum(s.ss) ? s.ss : 0;
    if (isNum(s.ss) && (!best || s.ss > best.s.ss)) best = x;
    const bar = svg('g', { class: 'bar ' + x.cls, 'data-prn': s.PRN, 'data-gnss': x.g >= 0 ? x.g : '', 'data-used': x.used }, root);
    titled(bar, `${x.sys.name} ${x.label}: ` + (isNum(s.ss) ? `${s.ss} dB-Hz` : 'no signal level') + (x.used ? ', used' : ', not used'));
    svg('rect', { x: (cx - w / 2).toFixed(1), y: y(ss).toFixed(1), width: w.toFixed(1), height: Math.max(1, bottom - y(ss)).toFixed(1) }, bar);
    svg('text', { transform: `translate(${cx.toFixed(1)},${bottom + 5}) rotate(-90)`, 'text-anchor': 'end', dy: 2.5 }, bar).textContent = x.label;
    if (slot >= 16 && isNum(s.ss)) svg('text', { x: cx.toFixed(1), y: (y(ss) - 2).toFixed(1) }, bar).textContent = String(Math.round(s.ss));
  });
  const used = sats.filter((x) => x.used).length;
  root.setAttribute('aria-label', sats.length
    ? `Signal strength: ${sats.length} satellites, ${used} used` + (best ? `; strongest ${best.label} at ${best.s.ss} dB-Hz` : '')
    : 'Signal strength: no satellites');
}

function niceLength(m) {
  const p = Math.pow(10, Math.floor(Math.log10(m)));
  const f = m / p;
  return (f >= 5 ? 5 : f >= 2 ? 2 : 1) * p;
}

function lengthText(m) {
  return m >= 1000 ? `${+(m / 1000).toPrecision(3)} km` : `${+m.toPrecision(m < 10 ? 2 : 3)} m`;
}

function renderTrack(dev) {
  const q = (sel) => dev.track.querySelector(sel);
  const pts = dev.points;
  q('.nodata').setAttribute('visibility', pts.length ? 'hidden' : 'visible');
  if (!pts.length) {
    q('.path').setAttribute('points', '');
    q('.scale-label').textContent = '';
    q('.scale-bar').setAttribute('d', '');
    dev.track.setAttribute('aria-label', 'Track: no position yet');
    renderTiles(dev, 0, 0, 0);
    return;
  }
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  for (const p of pts) {
    if (p.x < x0) x0 = p.x; if (p.x > x1) x1 = p.x;
    if (p.y < y0) y0 = p.y; if (p.y > y1) y1 = p.y;
  }
  // At least 10 m across, so a receiver standing still does not magnify its own noise.
  const s = Math.min((TW - 40) / Math.max(x1 - x0, 10), (TH - 50) / Math.max(y1 - y0, 10));
  const mx = (x0 + x1) / 2, my = (y0 + y1) / 2;
  const X = (x) => TW / 2 + (x - mx) * s, Y = (y) => TH / 2 - 5 - (y - my) * s;
  q('.path').setAttribute('points', pts.map((p) => X(p.x).toFixed(1) + ',' + Y(p.y).toFixed(1)).join(' '));
  const last = pts[pts.length - 1];
  for (const c of [q('.current'), q('.acc')]) {
    c.setAttribute('cx', X(last.x).toFixed(1));
    c.setAttribute('cy', Y(last.y).toFixed(1));
  }
  const eph = dev.mode >= 2 && isNum(dev.tpv.eph) ? dev.tpv.eph * s : 0;
  q('.acc').setAttribute('r', eph.toFixed(1));
  const len = niceLength((TW * 0.3) / s);
  const px = len * s;
  q('.scale-bar').setAttribute('d', `M12,${TH - 18}v6h${px.toFixed(1)}v-6`);
  const label = lengthText(len);
  q('.scale-label').textContent = label;
  q('.scale-label').setAttribute('y', String(TH - 16));
  dev.track.setAttribute('aria-label', `Track: ${pts.length} point${pts.length === 1 ? '' : 's'} over ` +
    `${lengthText(Math.max(x1 - x0, 0.1))} east–west by ${lengthText(Math.max(y1 - y0, 0.1))} north–south; scale bar ${label}` +
    (dev.mode >= 2 ? '' : '; no fix now'));
  renderTiles(dev, s, X, Y);
}

// Web Mercator tiles under the track, only when the server was given a tile URL.
// Over the few kilometres a track spans, the local plane and Mercator agree to a pixel.
function renderTiles(dev, s, X, Y) {
  const layer = dev.tileLayer;
  const note = dev.el.querySelector('.attribution');
  if (!tilesURL || !s || !dev.origin) {
    layer.replaceChildren();
    dev.tiles.clear();
    note.hidden = true;
    return;
  }
  const o = dev.origin;
  const lonOf = (vx) => o.lon + (vx - X(0)) / s / (K * o.cos);
  const latOf = (vy) => o.lat - (vy - Y(0)) / s / K;
  const lonX = (lon) => X((lon - o.lon) * K * o.cos);
  const latY = (lat) => Y((lat - o.lat) * K);
  const west = lonOf(0), east = lonOf(TW), north = latOf(0), south = latOf(TH);
  const pxPerUnit = (dev.track.getBoundingClientRect().width || TW) / TW;
  let z = Math.round(Math.log2(40075016.7 * o.cos * s * pxPerUnit / 256));
  z = Math.max(0, Math.min(19, z));
  const tx = (lon, n) => Math.floor((lon + 180) / 360 * n);
  const ty = (lat, n) => {
    const r = Math.max(-85.05, Math.min(85.05, lat)) * Math.PI / 180;
    return Math.floor((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2 * n);
  };
  let n, xa, xb, ya, yb;
  for (;;) {
    n = 2 ** z;
    xa = tx(west, n); xb = tx(east, n); ya = ty(north, n); yb = ty(south, n);
    if ((xb - xa + 1) * (yb - ya + 1) <= 36 || z === 0) break;
    z--;
  }
  const tileLat = (y) => Math.atan(Math.sinh(Math.PI * (1 - 2 * y / n))) * 180 / Math.PI;
  const seen = new Set();
  for (let x = xa; x <= xb; x++) {
    for (let y = Math.max(0, ya); y <= Math.min(n - 1, yb); y++) {
      const key = `${z}/${x}/${y}`;
      seen.add(key);
      let img = dev.tiles.get(key);
      if (!img) {
        const url = tilesURL.replace(/\{z\}/g, z).replace(/\{x\}/g, ((x % n) + n) % n)
          .replace(/\{y\}/g, y).replace(/\{s\}/g, 'a').replace(/\{r\}/g, '');
        img = svg('image', { href: url, preserveAspectRatio: 'none' }, layer);
        dev.tiles.set(key, img);
      }
      const left = lonX(x / n * 360 - 180), right = lonX((x + 1) / n * 360 - 180);
      const top = latY(tileLat(y)), bottom = latY(tileLat(y + 1));
      img.setAttribute('x', left.toFixed(2));
      img.setAttribute('y', top.toFixed(2));
      img.setAttribute('width', (right - left + 0.5).toFixed(2));
      img.setAttribute('height', (bottom - top + 0.5).toFixed(2));
    }
  }
  for (const [key, img] of dev.tiles) if (!seen.has(key)) { img.remove(); dev.tiles.delete(key); }
  let host = '';
  try { host = new URL(tilesURL.replace(/[{}]/g, '')).host; } catch (e) { host = 'the configured server'; }
  note.textContent = `Map tiles from ${host}` + (/openstreetmap/.test(host) ? ' — © OpenStreetMap contributors' : '');
  note.hidden = false;
}

// ---- connection ------------------------------------------------------------

function setConnection(state) {
  const el = document.getElementById('connection');
  el.dataset.state = state;
  el.textContent = state === 'connected' ? 'connected' : 'reconnecting…';
}

let opened = false;
function connect() {
  const es = new EventSource('/events');
  es.onopen = () => {
    setConnection('connected');
    if (opened) fetchNow(); // what happened while we were away
    opened = true;
  };
  es.onmessage = (e) => {
    eventCount++;
    let msg = null;
    try { msg = JSON.parse(e.data); } catch (err) { msg = null; }
    if (msg && typeof msg === 'object' && typeof msg.class === 'string') handle(msg, eventCount);
    schedule();
  };
  es.onerror = () => {
    setConnection('reconnecting');
    // EventSource gives up for good on an HTTP error; keep trying, gently.
    if (es.readyState === EventSource.CLOSED) {
      opened = true;
      setTimeout(connect, 3000);
    }
  };
}

window.addEventListener('resize', () => {
  for (const dev of devices.values()) dev.dirty.add('sky').add('track');
  schedule();
});

fetchNow();
connect();
setInterval(() => { for (const dev of devices.values()) renderAge(dev); }, 1000);
