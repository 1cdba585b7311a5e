/// How each command picks its row of `OutputFormat.all` from the options given, and the usage
/// errors for choices that contradict each other or the command.
extension OutputFormat {
    /// `watch`: the format flagged, else the live view for a person at a terminal, else text.
    static func forWatch(_ args: ParsedArguments, stdoutIsTerminal: Bool) throws -> OutputFormat {
        let chosen = try flagged(args)
        let timestamps = args.has("-t")
        if timestamps, let chosen, !chosen.stampsLines {
            let lines = all.filter(\.stampsLines).map(\.title)
            let others = all.filter { !$0.stampsLines }.compactMap(\.flag)
            throw UsageError(message: "-t stamps lines of \(spoken(lines)); it does not apply to \(spoken(others))")
        }
        if let chosen { return chosen }
        if stdoutIsTerminal && !timestamps, let view = all.first(where: \.isForPeople) { return view }
        return plain
    }

    /// `fix`: the format flagged, or text; only one that can show a single fix.
    static func forOneFix(_ args: ParsedArguments) throws -> OutputFormat {
        let chosen = try flagged(args) ?? plain
        guard !chosen.showsOneFix, let flag = chosen.flag else { return chosen }
        let choices = all.filter(\.showsOneFix).map { $0.flag ?? $0.title }
        throw UsageError(message: "\(flag) shows a run of fixes, not one: fix prints \(spoken(choices)); 'gpsfix watch \(flag)' shows \(chosen.title)")
    }

    /// `record`: the format whose file option was given, and the file's path; nil for none
    /// (a raw capture).
    static func forFile(_ args: ParsedArguments) -> (format: OutputFormat, path: String)? {
        for format in all where format.makeFile != nil {
            if let flag = format.flag, let path = args[flag] { return (format, path) }
        }
        return nil
    }

    /// The options a command offers for its formats: `watch` every flag, `fix` those that
    /// show one fix (the rest parse, to be refused with a reason rather than as unknown).
    static var watchOptions: [OptionSpec] {
        all.compactMap { f in f.flag.map { .flag($0, f.help) } }
    }

    static var fixOptions: [OptionSpec] {
        all.compactMap { f in
            f.flag.map { f.showsOneFix ? .flag($0, f.fixHelp ?? f.help) : .hidden($0) }
        }
    }

    static var recordOptions: [OptionSpec] {
        all.compactMap { f in
            guard let flag = f.flag, f.makeFile != nil else { return nil }
            return .value(flag, "FILE", f.fileHelp ?? "")
        }
    }

    /// The row chosen when no flag is.
    /// Text lines, what a pipe or a file gets.
    static var plain: OutputFormat { all.first { $0.flag == nil }! }

    private static func flagged(_ args: ParsedArguments) throws -> OutputFormat? {
        let given = all.filter { $0.flag.map(args.has) ?? false }
        guard given.count <= 1 else {
            throw UsageError(message: "\(given.compactMap(\.flag).joined(separator: " and ")) are different outputs: choose one")
        }
        return given.first
    }
}

/// "a", "a or b", "a, b or c".
private func spoken(_ words: [String]) -> String {
    guard words.count > 1 else { return words.first ?? "" }
    return words.dropLast().joined(separator: ", ") + " or " + words.last!
}
