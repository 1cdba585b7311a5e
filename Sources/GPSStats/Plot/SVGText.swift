import NMEA

/// Numbers and text as an SVG file writes them: fixed decimals without Foundation, and
/// text escaped so that a capture's name can never open a tag.
enum SVGText {
    /// `value` to `decimals` places (0…6), as the engine writes numbers; a value that is not
    /// finite is 0 and one past 10¹⁵ is held there, since an attribute takes no "nan" or "1e+300".
    static func fixed(_ value: Double, _ decimals: Int = 1) -> String {
        let limited = value.isFinite ? max(-1e15, min(1e15, value)) : 0
        return NMEA.fixed(limited, max(0, min(6, decimals)))
    }

    /// A figure for a label: three significant decimals below 10, fewer above.
    static func label(_ value: Double) -> String {
        let magnitude = abs(value)
        return fixed(value, magnitude < 10 ? 3 : magnitude < 1000 ? 1 : 0)
    }

    /// `&`, `<`, `>`, `"` and `'` as entities; control characters (which XML 1.0 forbids) as `?`.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0xFFFE...0xFFFF).contains(scalar.value): out += "?"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// At most `limit` of `items`, evenly spaced, the first always among them: a plot of a
    /// day of fixes stays a file a browser opens.
    static func thinned<T>(_ items: [T], to limit: Int) -> [T] {
        guard items.count > limit, limit > 0 else { return items }
        // Index i·n/limit: exactly `limit` of them, spread over the whole run (n ≤ a million,
        // limit ≤ 20,000: the product fits with room to spare).
        return (0..<limit).map { items[$0 * items.count / limit] }
    }
}
