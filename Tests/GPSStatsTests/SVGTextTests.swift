@testable import GPSStats
import NMEA
import Testing

@Suite("SVG text: numbers, escaping, thinning")
struct SVGTextTests {
    @Test("Fixed decimals without Foundation: rounding, signs, and numbers no plot can hold")
    func fixed() {
        #expect(SVGText.fixed(1.25, 1) == "1.3" && SVGText.fixed(-0.04, 1) == "0.0" && SVGText.fixed(-2.5, 0) == "-3")
        #expect(SVGText.fixed(1108.07, 3) == "1108.070" && SVGText.fixed(0.0005, 3) == "0.001")
        #expect(SVGText.fixed(.nan) == "0.0" && SVGText.fixed(.infinity, 0) == "0" && SVGText.fixed(1e300, 0) == "1000000000000000")
    }

    @Test("Markup and control characters in text are entities or '?'")
    func escaped() {
        #expect(SVGText.escaped("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&apos;")
        #expect(SVGText.escaped("x\u{1B}[2J\u{0}y") == "x?[2J?y")
        #expect(SVGText.escaped("ΔN 3 m") == "ΔN 3 m")
    }

    @Test("Thinned evenly, the first kept, never more than the limit")
    func thinned() {
        let items = Array(0..<100_001)
        let kept = SVGText.thinned(items, to: 20_000)
        #expect(kept.count == 20_000 && kept.first == 0 && kept.last == 99_995 && kept[1] == 5)
        #expect(SVGText.thinned([1, 2, 3], to: 20_000) == [1, 2, 3])
    }

    @Test("A plot of nothing is still a picture, saying so")
    func empty() {
        var collector = FixStatistics.Collector()
        collector.add(Fix())
        let svg = SVGPlot(title: "empty", statistics: collector.statistics).svg
        #expect(svg.hasPrefix("<?xml") && svg.hasSuffix("</svg>\n") && svg.contains("No fix with a position"))
    }
}
