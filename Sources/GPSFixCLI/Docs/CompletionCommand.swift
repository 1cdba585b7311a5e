/// `gpsfix completion bash|zsh`: the completion script for a shell, made from the table of
/// commands, so a new option completes as soon as it parses.
struct CompletionCommand {
    let args: ParsedArguments
    let terminal: Terminal

    static let shells: [(name: String, script: @Sendable () -> String)] = [
        ("bash", { BashCompletion.script }),
        ("zsh", { ZshCompletion.script }),
    ]

    func run() throws -> Int32 {
        let names = Self.shells.map(\.name).joined(separator: " or ")
        guard let shell = args.positionals.first else {
            throw UsageError(message: "name the shell: \(names)")
        }
        guard let script = Self.shells.first(where: { $0.name == shell })?.script else {
            throw UsageError(message: "completion is made for \(names), not '\(shell)'")
        }
        terminal.print(script())
        return 0
    }
}
