/// One line a person can type, and what it does: a row of a command's help's and the man
/// page's EXAMPLES.
struct Example: Sendable {
    /// As typed, starting with `gpsfix` (a pipe into or out of it may surround it).
    let line: String
    let explanation: String

    init(_ line: String, _ explanation: String) {
        self.line = line
        self.explanation = explanation
    }

    /// The arguments after `gpsfix` in `line`, for checking the example against the parser:
    /// up to a pipe or the end; quotes are not used in examples.
    var arguments: [String] {
        guard let start = line.firstRange(of: "gpsfix") else { return [] }
        let rest = line[start.upperBound...].prefix { $0 != "|" && $0 != "#" && $0 != ">" && $0 != "<" && $0 != ")" }
        return rest.split(separator: " ").map(String.init)
    }
}
