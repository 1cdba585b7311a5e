import NMEA

/// One way `gpsfix` shows what a source reports, and what it asks of the command that uses it.
///
/// Every format is one row of `OutputFormat.all`, and `watch`, `fix` and `record` choose from
/// that list only: a new format is its own type in its own file plus one row here, and the
/// commands' options, help and usage errors follow from the row.
struct OutputFormat: Sendable {
    /// What the user types to choose it; nil for text lines, chosen when nothing is.
    let flag: String?
    /// Its name in messages ("-t stamps lines of text, JSON or NMEA").
    let title: String
    /// `watch --help`'s line for the flag.
    let help: String
    /// The source must hand over every sentence it reads, not only what they amount to.
    var needsSentences = false
    /// It writes lines, so `-t` has something to prefix.
    var stampsLines = false
    /// It can say one fix on its own, which is all `fix` has; a track, a stream of sentences
    /// or a screen cannot.
    var showsOneFix = false
    /// `fix --help`'s line for the flag, where it differs from `help`.
    var fixHelp: String?
    /// Chosen without a flag when stdout is a terminal (and `-t` does not ask for lines).
    var isForPeople = false
    /// It can interleave several sources' reports (`watch --device A --device B`): lines can,
    /// a track or a screen of one source cannot.
    var showsSeveralSources = false
    /// With several sources, its lines begin with the source's name (text); formats whose
    /// lines carry it already (JSON's "device") or must stay as received (NMEA) do not.
    var labelsLines = false
    /// The output `watch` writes to stdout.
    let make: @Sendable (OutputSetup) throws -> any WatchOutput
    /// The file `record FLAG FILE` writes; nil when the format is not recorded to files.
    var makeFile: (@Sendable (_ path: String, _ source: String, _ overwrite: Bool) throws -> any FileOutput)?
    /// `record --help`'s line for `FLAG FILE`.
    var fileHelp: String?

    static let all: [OutputFormat] = [
        OutputFormat(
            flag: nil, title: "text", help: "",
            stampsLines: true, showsOneFix: true, showsSeveralSources: true, labelsLines: true,
            make: { LineOutput(TextLines(), setup: $0) }),
        OutputFormat(
            flag: "--json", title: "JSON",
            help: "Print gpsd's JSON reports (TPV, SKY and GST), one a line, as 'gpspipe -w' does.",
            stampsLines: true, showsOneFix: true, fixHelp: "Print the fix as a gpsd TPV report.", showsSeveralSources: true,
            make: { LineOutput(GpsdJSONLines(source: $0.context.source, device: $0.device), setup: $0) }),
        OutputFormat(
            flag: "--nmea", title: "NMEA",
            help: "Pass the sentences through unchanged (those with a good checksum), as 'gpspipe -r' does.",
            needsSentences: true, stampsLines: true, showsSeveralSources: true,
            make: { LineOutput(NMEALines(), setup: $0) }),
        OutputFormat(
            flag: "--gpx", title: "GPX",
            help: "Write a GPX 1.1 track of the fixes to stdout, closed properly on Ctrl-C.",
            make: { try GPXOutput(context: $0.context) },
            makeFile: { try GPXFileWriter(path: $0, source: $1, overwrite: $2) },
            fileHelp: "Write the fixes to FILE as a GPX 1.1 track instead of a raw capture (from any source)."),
        OutputFormat(
            flag: "--view", title: "the live view",
            help: "Show the live terminal view (the default when stdout is a terminal).",
            isForPeople: true,
            make: { try LiveViewOutput(context: $0.context, statistics: $0.statistics) }),
    ]
}

/// What a format is made with: the run it shows, and what the user asked of it.
struct OutputSetup {
    let context: WatchContext
    /// `-t`: prefix each line with the time it was written.
    var timestamps = false
    /// The source's running counts (sentences, bad checksums), read as they grow.
    var statistics: (@Sendable () -> Statistics?)?
    /// Whose report a line is, where several share the output (sources, or an MQTT fleet's
    /// vehicles): put before the line with a colon, after `-t`'s stamp, where the format
    /// labels lines. Asked once a report.
    var label: (@Sendable () -> String?)?
    /// Whose report it is where that is not the source (an MQTT fleet's vehicle): JSON's
    /// `device`, as gpsd's clients read it. Asked once a report; nil: the source.
    var device: (@Sendable () -> String?)?
}
