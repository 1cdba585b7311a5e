import func Glibc.cos
import func Glibc.sin

/// A run's figures as one SVG picture: the scatter of its fixes about their mean with the
/// CEP50 and CEP95 circles (gpsprof's "space" view), the satellites heard over the sky
/// coloured by signal (its "polar" view), and time series of altitude, HDOP, satellites used
/// and, from a live source, the time offset. Written whole as text; no I/O here.
///
/// Colours are from a palette readable with the common colour blindnesses (Okabe and Ito's,
/// and viridis's steps for signal strength), every mark class has a legend in words, and the
/// file carries a `<title>` and `<desc>` for screen readers. At most ``markLimit`` marks per
/// panel (evenly thinned), so a day's run stays a file a browser opens.
public struct SVGPlot: Sendable {
    /// The most points drawn in one panel.
    public static let markLimit = 20_000

    let title: String
    let statistics: FixStatistics

    /// A plot of `statistics`, headed by `title` (a capture's name, escaped as text).
    public init(title: String, statistics: FixStatistics) {
        self.title = title
        self.statistics = statistics
    }

    static let width = 960.0
    static let panel = 450.0
    static let seriesHeight = 150.0
    static let ink = "#222222", grid = "#bbbbbb", point = "#0072B2", cep50 = "#D55E00", cep95 = "#009E73"
    /// Signal strength steps, dB-Hz: below 20, 20–30, 30–40, 40 and above (viridis).
    static let snrSteps: [(below: Double, colour: String, name: String)] = [
        (20, "#440154", "below 20"), (30, "#31688e", "20 to 30"), (40, "#35b779", "30 to 40"), (.infinity, "#fde725", "40 and above"),
    ]

    private var seriesPanels: [(name: String, unit: String, values: [(Double, Double?)])] {
        let epochs = statistics.series.epochs
        let panels: [(String, String, [(Double, Double?)])] = [
            ("Altitude", "m", epochs.map { ($0.seconds, $0.altitude) }),
            ("HDOP", "", epochs.map { ($0.seconds, $0.hdop) }),
            ("Satellites used", "", epochs.map { ($0.seconds, $0.satellitesUsed.map(Double.init)) }),
            ("Time offset", "ms", epochs.map { ($0.seconds, $0.timeOffset.map { $0 * 1000 }) }),
        ]
        return panels.filter { $0.2.contains { $0.1 != nil } }.map { (name: $0.0, unit: $0.1, values: $0.2) }
    }

    /// The whole file.
    public var svg: String {
        let panels = seriesPanels
        let height = 110 + Self.panel + 40 + Double(panels.count) * (Self.seriesHeight + 40) + 20
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(SVGText.fixed(Self.width, 0))" height="\(SVGText.fixed(height, 0))" viewBox="0 0 \(SVGText.fixed(Self.width, 0)) \(SVGText.fixed(height, 0))" role="img" aria-labelledby="title desc" font-family="DejaVu Sans, Verdana, sans-serif" font-size="13">
            <title id="title">\(SVGText.escaped(title))</title>
            <desc id="desc">\(SVGText.escaped(description))</desc>
            <rect width="100%" height="100%" fill="#ffffff"/>
            <text x="20" y="32" font-size="20" fill="\(Self.ink)">\(SVGText.escaped(title))</text>
            <text x="20" y="56" fill="\(Self.ink)">\(SVGText.escaped(subtitle))</text>

            """
        out += scatterPanel(x: 20, y: 100)
        out += polarPanel(x: 490, y: 100)
        var y = 100 + Self.panel + 60
        for panel in panels {
            out += seriesPanel(panel.name, unit: panel.unit, values: panel.values, x: 70, y: y)
            y += Self.seriesHeight + 40
        }
        return out + "</svg>\n"
    }

    var subtitle: String {
        let s = statistics
        var text = "\(s.epochs) epochs, \(s.fixes) with a position"
        if let scatter = s.scatter {
            text += "; mean \(SVGText.fixed(scatter.latitude, 7)), \(SVGText.fixed(scatter.longitude, 7))"
            text += "; σ north \(SVGText.label(scatter.sigmaNorth)) m, east \(SVGText.label(scatter.sigmaEast)) m; 2DRMS \(SVGText.label(scatter.drms2)) m"
        }
        return text
    }

    var description: String {
        guard let scatter = statistics.scatter else { return "No fix with a position: " + subtitle }
        return "Scatter of \(scatter.count) fixes about their mean: CEP50 \(SVGText.label(scatter.cep50)) m, CEP95 \(SVGText.label(scatter.cep95)) m, the farthest \(SVGText.label(scatter.maximum)) m. "
            + "Sky plot of \(statistics.series.sky.count) satellite sightings coloured by signal strength; time series of altitude, HDOP and satellites used."
    }

    // MARK: The scatter

    private func scatterPanel(x: Double, y: Double) -> String {
        let size = Self.panel, half = size / 2, cx = x + half, cy = y + half
        var out = "<g aria-label=\"Scatter of the fixes about their mean\">\n"
        out += "<text x=\"\(SVGText.fixed(x))\" y=\"\(SVGText.fixed(y - 12))\" font-size=\"15\" fill=\"\(Self.ink)\">Fixes about their mean (metres)</text>\n"
        out += "<rect x=\"\(SVGText.fixed(x))\" y=\"\(SVGText.fixed(y))\" width=\"\(SVGText.fixed(size))\" height=\"\(SVGText.fixed(size))\" fill=\"none\" stroke=\"\(Self.grid)\"/>\n"
        guard let scatter = statistics.scatter else {
            return out + "<text x=\"\(SVGText.fixed(cx))\" y=\"\(SVGText.fixed(cy))\" text-anchor=\"middle\" fill=\"\(Self.ink)\">No fix with a position</text>\n</g>\n"
        }
        let extent = max(scatter.maximum, scatter.cep95, 0.001) * 1.1
        let scale = (half - 10) / extent
        // Axes through the mean, and ticks at half and all of the extent.
        out += line(x, cy, x + size, cy, Self.grid) + line(cx, y, cx, y + size, Self.grid)
        for fraction in [-1.0, -0.5, 0.5, 1.0] {
            let metres = extent * fraction * (half - 10) / half
            let px = cx + metres * scale, py = cy - metres * scale
            out += line(px, cy - 4, px, cy + 4, Self.ink) + line(cx - 4, py, cx + 4, py, Self.ink)
            out += "<text x=\"\(SVGText.fixed(px))\" y=\"\(SVGText.fixed(cy + 18))\" text-anchor=\"middle\" font-size=\"11\" fill=\"\(Self.ink)\">\(SVGText.label(metres))</text>\n"
            out += "<text x=\"\(SVGText.fixed(cx + 7))\" y=\"\(SVGText.fixed(py + 4))\" font-size=\"11\" fill=\"\(Self.ink)\">\(SVGText.label(metres))</text>\n"
        }
        out += "<text x=\"\(SVGText.fixed(x + size - 4))\" y=\"\(SVGText.fixed(cy - 6))\" text-anchor=\"end\" font-size=\"11\" fill=\"\(Self.ink)\">east</text>\n"
        out += "<text x=\"\(SVGText.fixed(cx + 6))\" y=\"\(SVGText.fixed(y + 14))\" font-size=\"11\" fill=\"\(Self.ink)\">north</text>\n"
        out += "<g fill=\"\(Self.point)\" fill-opacity=\"0.55\">\n"
        for offset in SVGText.thinned(scatter.offsets, to: Self.markLimit) {
            out += "<circle cx=\"\(SVGText.fixed(cx + offset.east * scale))\" cy=\"\(SVGText.fixed(cy - offset.north * scale))\" r=\"2\"/>\n"
        }
        out += "</g>\n"
        out += "<circle cx=\"\(SVGText.fixed(cx))\" cy=\"\(SVGText.fixed(cy))\" r=\"\(SVGText.fixed(scatter.cep50 * scale, 2))\" fill=\"none\" stroke=\"\(Self.cep50)\" stroke-width=\"2\"/>\n"
        out += "<circle cx=\"\(SVGText.fixed(cx))\" cy=\"\(SVGText.fixed(cy))\" r=\"\(SVGText.fixed(scatter.cep95 * scale, 2))\" fill=\"none\" stroke=\"\(Self.cep95)\" stroke-width=\"2\" stroke-dasharray=\"6 4\"/>\n"
        // The legend, in words.
        let legendY = y + size + 22
        out += line(x, legendY - 4, x + 24, legendY - 4, Self.cep50, width: 2)
        out += "<text x=\"\(SVGText.fixed(x + 30))\" y=\"\(SVGText.fixed(legendY))\" fill=\"\(Self.ink)\">CEP50 \(SVGText.label(scatter.cep50)) m</text>\n"
        out += "<line x1=\"\(SVGText.fixed(x + 160))\" y1=\"\(SVGText.fixed(legendY - 4))\" x2=\"\(SVGText.fixed(x + 184))\" y2=\"\(SVGText.fixed(legendY - 4))\" stroke=\"\(Self.cep95)\" stroke-width=\"2\" stroke-dasharray=\"6 4\"/>\n"
        out += "<text x=\"\(SVGText.fixed(x + 190))\" y=\"\(SVGText.fixed(legendY))\" fill=\"\(Self.ink)\">CEP95 \(SVGText.label(scatter.cep95)) m</text>\n"
        out += "<text x=\"\(SVGText.fixed(x + 320))\" y=\"\(SVGText.fixed(legendY))\" fill=\"\(Self.ink)\">\(scatter.count) fixes</text>\n"
        return out + "</g>\n"
    }

    // MARK: The sky

    private func polarPanel(x: Double, y: Double) -> String {
        let half = Self.panel / 2, cx = x + half, cy = y + half, radius = half - 30
        var out = "<g aria-label=\"Satellites heard over the sky, coloured by signal strength\">\n"
        out += "<text x=\"\(SVGText.fixed(x))\" y=\"\(SVGText.fixed(y - 12))\" font-size=\"15\" fill=\"\(Self.ink)\">Signal over the sky (dB-Hz)</text>\n"
        for elevation in [0.0, 30, 60] {
            let r = radius * (90 - elevation) / 90
            out += "<circle cx=\"\(SVGText.fixed(cx))\" cy=\"\(SVGText.fixed(cy))\" r=\"\(SVGText.fixed(r))\" fill=\"none\" stroke=\"\(Self.grid)\"/>\n"
            if elevation > 0 {
                out += "<text x=\"\(SVGText.fixed(cx + 3))\" y=\"\(SVGText.fixed(cy - r - 3))\" font-size=\"10\" fill=\"\(Self.ink)\">\(Int(elevation))°</text>\n"
            }
        }
        out += line(cx - radius, cy, cx + radius, cy, Self.grid) + line(cx, cy - radius, cx, cy + radius, Self.grid)
        for (label, dx, dy) in [("N", 0.0, -radius - 8), ("E", radius + 12, 4.0), ("S", 0.0, radius + 18), ("W", -radius - 12, 4.0)] {
            out += "<text x=\"\(SVGText.fixed(cx + dx))\" y=\"\(SVGText.fixed(cy + dy))\" text-anchor=\"middle\" font-weight=\"bold\" fill=\"\(Self.ink)\">\(label)</text>\n"
        }
        for sample in SVGText.thinned(statistics.series.sky, to: Self.markLimit) {
            let elevation = max(0, min(90, sample.elevation))
            let azimuth = sample.azimuth * .pi / 180
            let r = radius * (90 - elevation) / 90
            let colour = Self.snrSteps.first { sample.snr < $0.below }?.colour ?? Self.snrSteps[Self.snrSteps.count - 1].colour
            let fill = sample.used ? colour : "none"
            out += "<circle cx=\"\(SVGText.fixed(cx + r * sin(azimuth)))\" cy=\"\(SVGText.fixed(cy - r * cos(azimuth)))\" r=\"3\" fill=\"\(fill)\" stroke=\"\(colour)\"/>\n"
        }
        var legendX = x
        let legendY = y + Self.panel + 22
        for step in Self.snrSteps {
            out += "<circle cx=\"\(SVGText.fixed(legendX + 5))\" cy=\"\(SVGText.fixed(legendY - 4))\" r=\"5\" fill=\"\(step.colour)\"/>\n"
            out += "<text x=\"\(SVGText.fixed(legendX + 14))\" y=\"\(SVGText.fixed(legendY))\" fill=\"\(Self.ink)\">\(step.name)</text>\n"
            legendX += 100
        }
        out += "<text x=\"\(SVGText.fixed(x))\" y=\"\(SVGText.fixed(legendY + 18))\" font-size=\"11\" fill=\"\(Self.ink)\">filled: used in the fix; ring: heard, not used</text>\n"
        return out + "</g>\n"
    }

    // MARK: Time series

    private func seriesPanel(_ name: String, unit: String, values: [(Double, Double?)], x: Double, y: Double) -> String {
        let width = Self.width - x - 30, height = Self.seriesHeight
        let known = values.compactMap { v in v.1.map { (v.0, $0) } }.filter { $0.1.isFinite }
        let label = unit.isEmpty ? name : "\(name) (\(unit))"
        var out = "<g aria-label=\"\(SVGText.escaped(label)) over time\">\n"
        out += "<text x=\"\(SVGText.fixed(x))\" y=\"\(SVGText.fixed(y - 8))\" font-size=\"15\" fill=\"\(Self.ink)\">\(SVGText.escaped(label))</text>\n"
        out += "<rect x=\"\(SVGText.fixed(x))\" y=\"\(SVGText.fixed(y))\" width=\"\(SVGText.fixed(width))\" height=\"\(SVGText.fixed(height))\" fill=\"none\" stroke=\"\(Self.grid)\"/>\n"
        guard let first = known.first else { return out + "</g>\n" }
        var low = known.map(\.1).min() ?? first.1, high = known.map(\.1).max() ?? first.1
        // A value that never changed is drawn across the middle, between its value ± 1.
        if high - low < 1e-9 { low -= 1; high += 1 }
        let span = high - low
        let end = max(values.last?.0 ?? 1, 1e-9)
        func px(_ t: Double) -> Double { x + t / end * width }
        func py(_ v: Double) -> Double { y + height - 8 - (v - low) / span * (height - 16) }
        // A line through the known values; an epoch without one breaks it.
        var path = "", drawing = false
        for (t, value) in SVGText.thinned(values, to: Self.markLimit) {
            guard let value, value.isFinite else { drawing = false; continue }
            path += (drawing ? "L" : "M") + SVGText.fixed(px(t)) + " " + SVGText.fixed(py(value)) + " "
            drawing = true
        }
        out += "<path d=\"\(path)\" fill=\"none\" stroke=\"\(Self.point)\" stroke-width=\"1.5\"/>\n"
        // Enough decimals that the two ends differ: 1107.80 and 1108.10 are not both "1108".
        // Counts (satellites) stay whole numbers.
        let whole = known.allSatisfy { $0.1 == $0.1.rounded() }
        let decimals = whole ? 0 : span < 0.1 ? 3 : span < 10 ? 2 : span < 1000 ? 1 : 0
        out += "<text x=\"\(SVGText.fixed(x - 6))\" y=\"\(SVGText.fixed(py(high) + 4))\" text-anchor=\"end\" font-size=\"11\" fill=\"\(Self.ink)\">\(SVGText.fixed(high, decimals))</text>\n"
        out += "<text x=\"\(SVGText.fixed(x - 6))\" y=\"\(SVGText.fixed(py(low) + 4))\" text-anchor=\"end\" font-size=\"11\" fill=\"\(Self.ink)\">\(SVGText.fixed(low, decimals))</text>\n"
        out += "<text x=\"\(SVGText.fixed(x))\" y=\"\(SVGText.fixed(y + height + 16))\" font-size=\"11\" fill=\"\(Self.ink)\">0 s</text>\n"
        out += "<text x=\"\(SVGText.fixed(x + width))\" y=\"\(SVGText.fixed(y + height + 16))\" text-anchor=\"end\" font-size=\"11\" fill=\"\(Self.ink)\">\(SVGText.label(end)) s</text>\n"
        return out + "</g>\n"
    }

    private func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ colour: String, width: Double = 1) -> String {
        "<line x1=\"\(SVGText.fixed(x1))\" y1=\"\(SVGText.fixed(y1))\" x2=\"\(SVGText.fixed(x2))\" y2=\"\(SVGText.fixed(y2))\" stroke=\"\(colour)\" stroke-width=\"\(SVGText.fixed(width))\"/>\n"
    }
}
