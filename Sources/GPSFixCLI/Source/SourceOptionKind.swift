import GPSLocation
import GPSSources

/// One kind of source the commands read, as its option names it (`--device`, `--replay`). A
/// new source is its manager's file in a library module, a type of this kind in a file of its
/// own, and one line in `SourceOptions.kinds`: every command's source options, their help, man
/// page, completions and usage line, the repeats `serve` and `watch` take, the refusal of two
/// sources to a one-source command, and the words its statuses are said in follow from that line.
protocol SourceOptionKind: Sendable {
    /// The manager it builds (known again from a manager by its type, for the words).
    associatedtype Manager: LocationManagerInterface
    /// The option that names one source of this kind; `serve` and `watch` take it again for each.
    static var name: String { get }
    /// Its options as help shows them, its naming one first (marked `.among("source")`), then
    /// those that only it uses (marked `.inside(name)`).
    static var options: [OptionSpec] { get }
    /// Whether `record FILE` can keep its bytes as a raw capture (a port's, a TCP stream's);
    /// otherwise `record` takes it with `--gpx` only, and refuses it without.
    static var recordsBytes: Bool { get }
    /// The words its statuses and the live view use ("device unplugged", "gpsd went away").
    static var words: SourceKind { get }
    /// Builds the manager of the one source of this kind that `args` names (`args[name]` is
    /// set, once; for `SourceOptions.unnamed`, also when no source is named). The options it
    /// does not use were refused already.
    static func manager(_ args: ParsedArguments, _ setting: SourceSetting) throws -> Manager
    /// Refuses an option of its own (`--baud`, `--speed`) given when no source of this kind is
    /// read: accepted silently, it would look as if it worked. `reads` are the naming options
    /// of what is read, sorted.
    static func refuseIdleOptions(_ args: ParsedArguments, reads: [String]) throws(UsageError)
}

extension SourceOptionKind {
    static var recordsBytes: Bool { false }

    static func refuseIdleOptions(_ args: ParsedArguments, reads: [String]) throws(UsageError) {}

    /// Whether `manager` is one of this kind's (for the words it is spoken of in).
    static func built(_ manager: any LocationManagerInterface) -> Bool { manager is Manager }

    /// Its manager, as the protocol every command sees.
    static func anyManager(_ args: ParsedArguments, _ setting: SourceSetting) throws -> any LocationManagerInterface {
        try manager(args, setting)
    }
}

/// What a command asks of every source it builds.
struct SourceSetting {
    /// A replay's pace where `--speed` does not say (`fix`: as fast as it can be read).
    let defaultSpeed: ReplayManager.Speed
    /// Each sentence is handed over as well (to serve to NMEA's clients, or print with `--nmea`).
    let forwardsSentences: Bool
    /// What is waited for when it is not there at the start.
    let waits: SourceOptions.Waiting
    /// `--simulated`: a receiver's simulator or demo output taken as fixes.
    let acceptsSimulatedFixes: Bool
}
