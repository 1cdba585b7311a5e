/// Text made safe for troff's man macros: what a person wrote comes out as written.
enum Roff {
    /// Backslashes, dashes and quotes escaped (so options copy and paste as typed: a bare
    /// `-` may print as a hyphen, `'` as a curly quote); anything beyond ASCII as `\[uXXXX]`,
    /// which troff reads whatever the locale; a leading `.` guarded from being a request.
    static func escape(_ text: some StringProtocol) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case "'": out += "\\(aq"
            case "`": out += "\\(ga"
            case "\"": out += "\\(dq"
            case "\n": out += " "
            default:
                if scalar.isASCII {
                    out.unicodeScalars.append(scalar)
                } else {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
                }
            }
        }
        return out.hasPrefix(".") ? "\\&" + out : out
    }

    /// Paragraphs of help text (lines wrapped for a terminal, blank lines between
    /// paragraphs) as troff text lines, `.PP` between them: troff fills to the reader's width.
    static func paragraphs(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .split(separator: "")
            .map { escape($0.joined(separator: " ")) }
            .joined(separator: "\n.PP\n")
    }

    /// A macro line whose one argument is `text`, quoted so that spaces stay in it.
    static func macro(_ name: String, _ text: String) -> String {
        ".\(name) \"\(escape(text))\""
    }
}
