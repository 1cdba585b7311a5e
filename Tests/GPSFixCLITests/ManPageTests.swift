import GPSTestSupport
import Foundation
import GPSSystem
import Testing
@testable import GPSFixCLI

/// gpsfix(1) as `man` shows it: rendered by groff and man-db from what `gpsfix --man` prints,
/// and held to the parser's own table, so an option without a man entry fails here.
@Suite("Man page", .enabled(if: GPSFixBinary.isAvailable, "gpsfix binary not found"),
       .enabled(if: ServeTools.has(DocTools.man) && ServeTools.has(DocTools.groff), "man-db and groff are not installed ('make test' installs them)"),
       .timeLimit(.minutes(1)))
struct ManPageTests {

    /// The page's source, in a file of its own.
    private func source(in dir: TemporaryDirectory) async throws -> String {
        let result = try #require(await gpsfix("--man"))
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        return try dir.write("gpsfix.1", result.stdout)
    }

    /// The page as `man` prints it to a pipe, 80 columns wide; its warnings, if any.
    static func render(_ path: String) async throws -> (text: String, warnings: String) {
        let result = try await runTool("/usr/bin/env", ["MANWIDTH=80", "LC_ALL=C.UTF-8", DocTools.man, "--warnings", "-l", path])
        #expect(result.status == 0, "man -l: \(result.err)")
        return (result.out, result.err)
    }

    /// Sections by heading (lines that start in column 0), and COMMANDS' subsections by name.
    static func sections(_ text: String) -> [String: String] {
        var sections: [String: String] = [:]
        var current = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let first = line.first, first != " " {
                current = String(line)
            } else if line.hasPrefix("   "), !line.hasPrefix("    ") {
                current = "COMMANDS/" + line.trimmingCharacters(in: .whitespaces)
            } else {
                sections[current, default: "\n"] += line + "\n"
            }
        }
        return sections
    }

    @Test("groff formats it without a warning of any kind (-ww)")
    func groffWarnings() async throws {
        let dir = try TemporaryDirectory()
        let path = try await source(in: dir)
        let result = try await runTool(DocTools.groff, ["-man", "-ww", "-z", path])
        #expect(result.status == 0)
        #expect(result.err.isEmpty, "\(result.err)")
    }

    @Test("man -l renders it without warnings, with its name line for whatis")
    func manRenders() async throws {
        let dir = try TemporaryDirectory()
        let path = try await source(in: dir)
        let (text, warnings) = try await Self.render(path)
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(text.hasPrefix("GPSFIX(1)"), "\(text.prefix(200))")
        #expect(text.contains("\nNAME\n       gpsfix - position fixes from NMEA 0183 GPS receivers\n"))
        // What mandb indexes for whatis and apropos.
        if ServeTools.has(DocTools.lexgrog) {
            let name = try await runTool(DocTools.lexgrog, [path])
            #expect(name.out.contains("gpsfix - position fixes from NMEA 0183 GPS receivers"), "\(name.out)\(name.err)")
        }
    }

    @Test("Each command's section names every option its parser takes; the page names every option any parser takes")
    func everyOption() async throws {
        let dir = try TemporaryDirectory()
        let (text, _) = try await Self.render(try await source(in: dir))
        let sections = Self.sections(text)
        for command in Commands.all {
            let section = try #require(sections["COMMANDS/" + command.name], "no section for \(command.name): \(sections.keys.sorted())")
            let words = section.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(words.contains(command.summary), "\(command.name)'s summary")
            for option in command.options {
                // A hidden option is one the command refuses with a reason: the page documents
                // it where it is taken.
                let whole = "(^|[ \\[(])" + NSRegularExpression.escapedPattern(for: option.name) + "($|[ \\]=,)])"
                let pattern = try NSRegularExpression(pattern: whole, options: .anchorsMatchLines)
                let place = option.isHidden ? text : section
                #expect(pattern.firstMatch(in: place, range: NSRange(place.startIndex..., in: place)) != nil,
                        "\(command.name) \(option.name) is not in the man page")
                if !option.isHidden, let value = option.value {
                    #expect(section.contains("\(option.name) \(value)"), "\(command.name) \(option.name) \(value)")
                }
            }
        }
    }

    @Test("EXIT STATUS explains every status, each command's section its own, and EXAMPLES shows every example")
    func statusesAndExamples() async throws {
        let dir = try TemporaryDirectory()
        let (text, _) = try await Self.render(try await source(in: dir))
        let sections = Self.sections(text)
        let status = try #require(sections["EXIT STATUS"])
        for row in ExitStatus.general {
            #expect(status.contains("\n       " + row.codes.map(String.init).joined(separator: ", ")), "\(row.codes)")
        }
        for command in Commands.all {
            let section = try #require(sections["COMMANDS/" + command.name])
            for row in command.exits {
                #expect(section.contains("\n       " + row.codes.map(String.init).joined(separator: ", ")), "\(command.name) \(row.codes)")
            }
        }
        let examples = try #require(sections["EXAMPLES"])
        for example in GPSFixCLI.examples + Commands.all.flatMap(\.examples) {
            #expect(examples.contains("\n       \(example.line)\n"), "\(example.line)")
        }
    }

    @Test("ENVIRONMENT names every variable serve takes from systemd, and FILES the options file")
    func systemdVariables() async throws {
        let dir = try TemporaryDirectory()
        let (text, _) = try await Self.render(try await source(in: dir))
        let sections = Self.sections(text)
        let environment = try #require(sections["ENVIRONMENT"])
        for name in PassedSockets.variables + ServiceNotifier.variables {
            #expect(environment.contains(name), "\(name)")
        }
        #expect(sections["FILES"]?.contains("/etc/default/gpsfix") == true)
    }
}

/// The programs that read what `make install` installs, where Debian puts them.
enum DocTools {
    static let man = "/usr/bin/man"
    static let groff = "/usr/bin/groff"
    static let lexgrog = "/usr/bin/lexgrog"
    static let bash = "/bin/bash"
    static let zsh = "/usr/bin/zsh"
    static let make = "/usr/bin/make"
    /// bash-completion's loader, which finds a command's script by name when it is first completed.
    static let bashCompletion = "/usr/share/bash-completion/bash_completion"
}
