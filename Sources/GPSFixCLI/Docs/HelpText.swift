/// `--help`: each command's, and the overview's. The man page (`ManPage`) is made from the
/// same rows, so the two say the same.
extension Command {
    var help: String {
        var text = "\(summary)\n\nUsage: \(usage)\n"
        if !details.isEmpty { text += "\n\(details)\n" }
        if !options.isEmpty {
            text += "\nOptions:\n"
            let shown = options.filter { !$0.isHidden } + [.flag("--help", "Show this help.")]
            text += HelpText.columns(shown.map { ($0.name + ($0.value.map { " " + $0 } ?? ""), $0.help) })
        }
        text += HelpText.sections(examples: examples, exits: exits)
        return text
    }
}

extension GPSFixCLI {
    /// The overview's examples: one for each thing most people came to do.
    static let examples: [Example] = [
        Example("gpsfix", "The first fix from the first receiver found."),
        Example("gpsfix watch", "Every fix until Ctrl-C: the live view in a terminal, a line per fix in a pipe."),
        Example("gpsfix watch --replay Captures/drive-1hz.nmea --json --speed max", "A capture's fixes as gpsd's JSON reports, as fast as it can be read."),
        Example("gpsfix serve --listen 2948", "Serve the receiver to gpsd's clients on 127.0.0.1:2948."),
        Example("gpsfix --man | man -l -", "Read the manual page without installing it."),
    ]

    static var overview: String {
        var text = """
        gpsfix \(version): position fixes from NMEA 0183 GPS receivers.

        Usage: gpsfix [COMMAND] [OPTIONS]

        Commands:

        """
        text += HelpText.columns(Commands.all.map { ($0.name, $0.summary) })
        text += """

        With no command, gpsfix runs 'fix'. 'gpsfix COMMAND --help' tells more; 'gpsfix --man'
        prints the manual page, 'gpsfix --version' (or -V) the version.

        """
        text += HelpText.sections(examples: examples, exits: ExitStatus.general)
        return text
    }
}

enum HelpText {
    /// Left column, then each text two spaces after the longest left.
    static func columns(_ rows: [(left: String, text: String)]) -> String {
        let width = rows.map(\.left.count).max() ?? 0
        return rows.map { "  " + $0.left + String(repeating: " ", count: width - $0.left.count + 2) + $0.text + "\n" }.joined()
    }

    /// The EXAMPLES and EXIT STATUS sections of a help.
    static func sections(examples: [Example], exits: [ExitStatus]) -> String {
        var text = ""
        if !examples.isEmpty {
            text += "\nExamples:\n"
            for example in examples { text += "  \(example.line)\n      \(example.explanation)\n" }
        }
        if !exits.isEmpty {
            text += "\nExit status:\n"
            text += columns(exits.map { ($0.codes.map(String.init).joined(separator: ", "), $0.meaning) })
        }
        return text
    }
}
