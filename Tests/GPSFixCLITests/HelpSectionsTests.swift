import GPSTestSupport
import Foundation
import Testing
@testable import GPSFixCLI

/// The examples and exit statuses every `--help` and the man page show: checked against the
/// parser (an example that no longer parses is a lie) and against the binary's real statuses.
@Suite("Help: examples and exit status")
struct HelpSectionsTests {
    /// The command an example runs, as `GPSFixCLI` picks it, and the arguments it gets.
    private static func command(of example: Example) -> (Command, [String])? {
        var arguments = example.arguments
        if let first = arguments.first, let named = Commands.named(first) {
            arguments.removeFirst()
            return (named, arguments)
        }
        // `gpsfix --man`, `--version`, `--help`: handled before any command.
        if let first = arguments.first, ["--man", "--version", "--help"].contains(first) { return nil }
        return (Commands.fix, arguments)
    }

    @Test("Every example parses with its command's own table, and says something")
    func examplesParse() throws {
        let all = GPSFixCLI.examples + Commands.all.flatMap(\.examples)
        #expect(all.count >= Commands.all.count)
        for example in all {
            #expect(!example.explanation.isEmpty && example.line.contains("gpsfix"), "\(example.line)")
            guard let (command, arguments) = Self.command(of: example) else { continue }
            do {
                let parsed = try ArgumentParser.parse(arguments, options: command.options, positionals: command.positionals)
                #expect(!parsed.wantsHelp)
            } catch {
                Issue.record("'\(example.line)' does not parse for \(command.name): \(error.message)")
            }
        }
    }

    @Test("Every command shows examples of itself, and the statuses it exits with, 64 among them")
    func everyCommandHasSections() {
        for command in Commands.all {
            #expect(!command.examples.isEmpty, "\(command.name) has no examples")
            for example in command.examples {
                #expect(Self.command(of: example)?.0.name == command.name, "'\(example.line)' is not an example of \(command.name)")
            }
            let codes = command.exits.flatMap(\.codes)
            #expect(codes.contains(0) && codes.contains(64), "\(command.name): \(codes)")
            #expect(Set(codes).isSubset(of: Set(ExitStatus.general.flatMap(\.codes))), "\(command.name) has a status the overview does not explain")
        }
    }

    @Test("Each command's --help ends with its examples and exit statuses, as the binary prints them",
          .enabled(if: GPSFixBinary.isAvailable), .timeLimit(.minutes(1)))
    func helpShowsSections() async throws {
        for command in Commands.all {
            let result = try #require(await gpsfix(command.name, "--help"))
            #expect(result.status == 0, "\(result)")
            let help = result.stdout
            let examples = try #require(help.range(of: "\nExamples:\n"), "\(command.name) --help has no Examples")
            let exits = try #require(help.range(of: "\nExit status:\n"), "\(command.name) --help has no Exit status")
            #expect(examples.upperBound < exits.lowerBound)
            for example in command.examples {
                #expect(help[examples.upperBound..<exits.lowerBound].contains("  \(example.line)\n      \(example.explanation)\n"))
            }
            let statusLines = help[exits.upperBound...].split(separator: "\n")
            #expect(statusLines.count == command.exits.count, "\(command.name): \(statusLines)")
            for (line, row) in zip(statusLines, command.exits) {
                #expect(line.hasPrefix("  " + row.codes.map(String.init).joined(separator: ", ") + " "), "\(line)")
                #expect(line.hasSuffix(row.meaning), "\(line)")
            }
        }
    }

    @Test("The overview shows its examples and every exit status", .enabled(if: GPSFixBinary.isAvailable), .timeLimit(.minutes(1)))
    func overviewShowsSections() async throws {
        let result = try #require(await gpsfix("--help"))
        #expect(result.status == 0)
        for example in GPSFixCLI.examples { #expect(result.stdout.contains("  \(example.line)\n"), "\(example.line)") }
        for row in ExitStatus.general { #expect(result.stdout.contains(row.meaning), "\(row.codes)") }
        #expect(result.stdout.contains("\nExamples:\n") && result.stdout.contains("\nExit status:\n"))
    }

    @Test("A usage error in any command exits with the 64 its help lists", .enabled(if: GPSFixBinary.isAvailable),
          .timeLimit(.minutes(1)))
    func usageStatusIsTrue() async throws {
        for command in Commands.all {
            let result = try #require(await gpsfix(command.name, "--no-such-option"))
            #expect(result.status == 64, "\(command.name): \(result)")
            #expect(command.exits.contains { $0.codes == [64] })
        }
    }
}
