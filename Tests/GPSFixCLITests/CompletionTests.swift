import GPSTestSupport
import Foundation
import Testing
@testable import GPSFixCLI

/// `gpsfix completion bash`, sourced by a real bash and asked as bash asks when Tab is
/// pressed (COMP_WORDS, COMP_CWORD, then `_gpsfix`): what it offers must be what the parser
/// takes, option for option.
@Suite("Bash completion", .enabled(if: GPSFixBinary.isAvailable, "gpsfix binary not found"),
       .enabled(if: ServeTools.has(DocTools.bash), "bash is not installed"), .timeLimit(.minutes(2)))
struct BashCompletionTests {
    /// The script, and a directory with files to complete.
    final class Fixture: Sendable {
        let dir: TemporaryDirectory
        let script: String

        init() async throws {
            dir = try TemporaryDirectory()
            let result = try #require(await gpsfix("completion", "bash"))
            #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
            script = try dir.write("gpsfix.bash", result.stdout)
            for name in ["drive.nmea", "dr2.nmea", "other.txt"] { _ = try dir.write(name, "") }
        }

        /// What `_gpsfix` offers for `words` (the last is the one being completed), sorted.
        func offers(_ words: String...) async throws -> [String] {
            let body = """
                source "$0" || exit 2
                cd "$(dirname "$0")" || exit 2
                COMP_WORDS=("$@")
                COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
                COMP_LINE="${COMP_WORDS[*]}"
                COMPREPLY=()
                _gpsfix || exit 3
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            let result = try await runTool(DocTools.bash, ["--norc", "--noprofile", "-c", body, script] + words)
            #expect(result.status == 0 && result.err.isEmpty, "\(words): \(result.err)")
            return result.out.split(separator: "\n").map(String.init).sorted()
        }
    }

    /// The options a command's parser shows (hidden ones are refused with a reason, not offered).
    private func shown(_ command: Command, prefix: String = "--") -> [String] {
        (command.options.filter { !$0.isHidden }.map(\.name) + ["--help"]).filter { $0.hasPrefix(prefix) }.sorted()
    }

    @Test("The first word: every command, and help")
    func commands() async throws {
        let fixture = try await Fixture()
        #expect(try await fixture.offers("gpsfix", "") == (Commands.all.map(\.name) + ["help"]).sorted())
        #expect(try await fixture.offers("gpsfix", "w") == ["watch"])
        #expect(try await fixture.offers("gpsfix", "help", "") == Commands.all.map(\.name).sorted())
    }

    @Test("After a command, '--' offers exactly the options its parser shows, and --help")
    func optionsOfEachCommand() async throws {
        let fixture = try await Fixture()
        for command in Commands.all {
            #expect(try await fixture.offers("gpsfix", command.name, "--") == shown(command), "\(command.name)")
        }
        // No command is fix, with what only the first word can be.
        #expect(try await fixture.offers("gpsfix", "--") == (shown(Commands.fix) + ["--man", "--version"]).sorted())
        #expect(try await fixture.offers("gpsfix", "watch", "-") == shown(Commands.watch, prefix: "-"))
    }

    @Test("Each option's value completes as its table row says: files, words, ports, or nothing")
    func values() async throws {
        let fixture = try await Fixture()
        for command in Commands.all {
            for option in command.options where !option.isHidden && option.value != nil {
                let offered = try await fixture.offers("gpsfix", command.name, option.name, "")
                let label = "\(command.name) \(option.name)"
                switch option.valueCompletion {
                case .files:
                    #expect(try await fixture.offers("gpsfix", command.name, option.name, "dr") == ["dr2.nmea", "drive.nmea"], "\(label)")
                    #expect(try await fixture.offers("gpsfix", command.name, option.name, "=", "dr") == ["dr2.nmea", "drive.nmea"], "\(label)=")
                case .words(let words):
                    #expect(offered == words.sorted(), "\(label)")
                case .devices:
                    // No port is named /dev/nul*: any path then, as for a pty or /dev/ttyS0.
                    #expect(try await fixture.offers("gpsfix", command.name, option.name, "/dev/nul") == ["/dev/null"], "\(label)")
                case nil:
                    #expect(offered.isEmpty, "\(label) offers \(offered)")
                }
            }
        }
    }

    @Test("Positionals: record's FILE is a file, completion's a shell")
    func positionals() async throws {
        let fixture = try await Fixture()
        #expect(try await fixture.offers("gpsfix", "record", "dr") == ["dr2.nmea", "drive.nmea"])
        #expect(try await fixture.offers("gpsfix", "completion", "") == CompletionCommand.shells.map(\.name).sorted())
    }

    @Test("An option given already is not offered again; one that may repeat would be")
    func givenOnce() async throws {
        let fixture = try await Fixture()
        let offered = try await fixture.offers("gpsfix", "fix", "--replay", "x.nmea", "--json", "--")
        #expect(!offered.contains("--replay") && !offered.contains("--json"))
        #expect(offered.contains("--speed") && offered.contains("--loop"))
        // watch reads several sources: --replay may come again, --json may not.
        let several = try await fixture.offers("gpsfix", "watch", "--replay", "x.nmea", "--json", "--")
        #expect(several.contains("--replay") && !several.contains("--json"))
        // --gpsd's value may be left out: an option after it is an option.
        #expect(try await fixture.offers("gpsfix", "watch", "--gpsd", "--js") == ["--json"])
    }

    @Test("It is registered for gpsfix")
    func registered() async throws {
        let fixture = try await Fixture()
        let result = try await runTool(DocTools.bash, ["--norc", "--noprofile", "-c", "source \"$0\" && complete -p gpsfix", fixture.script])
        #expect(result.out == "complete -F _gpsfix gpsfix\n", "\(result)")
    }
}

/// `gpsfix completion zsh` in a real interactive zsh (in tmux), through compinit, as a
/// person's Tab finds it.
@Suite("Zsh completion", .enabled(if: GPSFixBinary.isAvailable, "gpsfix binary not found"),
       .enabled(if: Tmux.executable != nil && ServeTools.has(DocTools.zsh), "tmux or zsh is not installed ('make test' installs them)"),
       .timeLimit(.minutes(1)), .serialized)
struct ZshCompletionTests {
    @Test("Tab completes a command's options and their values from the table")
    func tab() async throws {
        // Given: _gpsfix on $fpath, compinit, and files to complete
        let dir = try TemporaryDirectory()
        let functions = try dir.makeDirectory("functions")
        let script = try #require(await gpsfix("completion", "zsh"))
        _ = try dir.write("functions/_gpsfix", script.stdout)
        for name in ["drive.nmea", "dr2.nmea"] { _ = try dir.write(name, "") }
        let binary = try #require(GPSFixBinary.url).deletingLastPathComponent().path
        _ = try dir.write(".zshrc", """
            PS1='%% '
            fpath=(\(functions) $fpath)
            path=(\(binary) $path)
            autoload -Uz compinit && compinit -u -d \(dir.path)/zcompdump
            cd \(dir.path)
            print ready
            """)
        let tmux = Tmux()
        defer { tmux.killServer() }
        try await tmux.start(["/usr/bin/env", "ZDOTDIR=\(dir.path)", DocTools.zsh, "-d", "-i"])
        try #require(await shows(tmux, "zsh started") { $0.contains("ready\n%") })

        // When / Then: an option's name, then its value (the files)
        try await tmux.keys("gpsfix watch --rep", "Tab")
        await shows(tmux) { $0.contains("% gpsfix watch --replay=") }
        try await tmux.keys("dr", "Tab")
        await shows(tmux) { $0.contains("dr2.nmea") && $0.contains("drive.nmea") }

        // A command's own options, and a positional from its table
        try await tmux.keys("C-u", "gpsfix serve --cl", "Tab")
        await shows(tmux) { $0.contains("% gpsfix serve --client-timeout=") }
        try await tmux.keys("C-u", "gpsfix completion ", "Tab")
        await shows(tmux) { $0.contains("bash  zsh") }
        // An option's words
        try await tmux.keys("C-u", "gpsfix watch --speed ", "Tab")
        await shows(tmux) { $0.contains("% gpsfix watch --speed max") }
    }

    /// Whether the pane comes to satisfy `condition`; if not, the issue shows what it showed.
    @discardableResult
    private func shows(_ tmux: Tmux, _ what: String = "", sourceLocation: SourceLocation = #_sourceLocation,
                       _ condition: (String) -> Bool) async -> Bool {
        if await tmux.waitForPane(.seconds(10), condition) != nil { return true }
        Issue.record("the pane never showed \(what): \(await tmux.pane() ?? "(no pane)")", sourceLocation: sourceLocation)
        return false
    }
}
