import Glibc
import GPSTestSupport
import Foundation
import Testing
@testable import GPSFixCLI

/// `make install` into a staging directory (DESTDIR) with the binary the tests run (no second
/// build), every file checked where it landed and read by what reads it on a system (man,
/// bash-completion's loader, zsh's compinit); then `make uninstall` takes it all away.
@Suite("make install and uninstall", .enabled(if: GPSFixBinary.isAvailable, "gpsfix binary not found"),
       .enabled(if: [DocTools.make, DocTools.man, DocTools.zsh].allSatisfy(ServeTools.has) && access(DocTools.bashCompletion, R_OK) == 0,
                "make, man-db, zsh or bash-completion is not installed ('make test' installs them)"),
       .timeLimit(.minutes(2)), .serialized)
struct InstallTests {
    /// `make -C ROOT ARGS`, free of the variables of a make that may be running the tests.
    private func make(_ arguments: [String]) async throws -> (status: Int32, out: String, err: String) {
        try await runTool("/usr/bin/env", ["-u", "MAKEFLAGS", "-u", "MFLAGS", "-u", "MAKELEVEL", DocTools.make, "-C", projectRoot.path]
                            + arguments, within: .seconds(60))
    }

    private func text(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    @Test("install puts the binary, man page, completions, udev rules and the units there are in their places; uninstall removes them all")
    func installAndUninstall() async throws {
        // Given: a staging directory and the binary built for the tests
        let dir = try TemporaryDirectory()
        let dest = dir.path + "/root"
        let binary = try #require(GPSFixBinary.url).path
        let staged = ["DESTDIR=\(dest)", "BINARY=\(binary)", "GENERATED=\(dir.path)/generated"]

        // When
        let install = try await make(["install"] + staged)

        // Then: each file where a /usr/local install puts it, and nothing else
        #expect(install.status == 0, "\(install.out)\(install.err)")
        var expected: Set<String> = [
            "usr/local/bin/gpsfix",
            "usr/local/share/man/man1/gpsfix.1",
            "usr/local/share/bash-completion/completions/gpsfix",
            "usr/local/share/zsh/site-functions/_gpsfix",
            "etc/udev/rules.d/60-gpsfix.rules",
        ]
        // The systemd units are installed when the tree has them.
        for unit in ["gpsfix.service", "gpsfix.socket"] where FileManager.default.fileExists(atPath: projectRoot.path + "/systemd/" + unit) {
            expected.insert("usr/local/lib/systemd/system/" + unit)
        }
        if FileManager.default.fileExists(atPath: projectRoot.path + "/systemd/gpsfix.default") { expected.insert("etc/default/gpsfix") }
        #expect(files(under: dest) == expected)
        let local = dest + "/usr/local"

        // The binary runs from there; the page and the completions are what it makes
        let version = try await runTool(local + "/bin/gpsfix", ["--version"])
        #expect(version.out == "gpsfix \(GPSFixCLI.version)\n")
        #expect(FileManager.default.isExecutableFile(atPath: local + "/bin/gpsfix"))
        #expect(text(local + "/share/man/man1/gpsfix.1") == ManPage.text)
        #expect(text(local + "/share/bash-completion/completions/gpsfix") == BashCompletion.script)
        #expect(text(local + "/share/zsh/site-functions/_gpsfix") == ZshCompletion.script)
        #expect(text(dest + "/etc/udev/rules.d/60-gpsfix.rules") == text(projectRoot.path + "/udev/60-gpsfix.rules"))

        // man finds the page by name under the prefix, and renders it without warnings
        let page = try await runTool("/usr/bin/env", ["MANWIDTH=80", DocTools.man, "--warnings", "-M", local + "/share/man", "gpsfix"])
        #expect(page.status == 0 && page.err.isEmpty, "\(page.err)")
        #expect(page.out.contains("gpsfix - position fixes from NMEA 0183 GPS receivers"))

        // bash-completion's loader finds the script where it looks under a prefix (XDG_DATA_DIRS)
        let loader = """
            source \(DocTools.bashCompletion)
            __load_completion gpsfix && complete -p gpsfix
            COMP_WORDS=(gpsfix serve --li); COMP_CWORD=2; _gpsfix; echo "${COMPREPLY[*]}"
            """
        let bash = try await runTool("/usr/bin/env", ["XDG_DATA_DIRS=\(local)/share", DocTools.bash, "--norc", "--noprofile", "-c", loader])
        #expect(bash.out == "complete -F _gpsfix gpsfix\n--listen\n", "\(bash.out)\(bash.err)")

        // zsh's compinit finds the function on an $fpath that has the prefix's site-functions
        let compinit = "fpath=(\(local)/share/zsh/site-functions $fpath); autoload -Uz compinit; compinit -u -d \(dir.path)/zcompdump; print -r -- $_comps[gpsfix]"
        let zsh = try await runTool(DocTools.zsh, ["-f", "-c", compinit])
        #expect(zsh.out == "_gpsfix\n", "\(zsh.out)\(zsh.err)")

        // When: uninstall from the same staging directory
        let uninstall = try await make(["uninstall"] + staged)

        // Then: not a file left
        #expect(uninstall.status == 0, "\(uninstall.out)\(uninstall.err)")
        #expect(files(under: dest).isEmpty, "left behind: \(files(under: dest))")
    }

    @Test("Units name the binary installed; the options file is installed once, kept when changed, removed only as installed")
    func units() async throws {
        // Given: units and an options file, as the systemd directory will hold them
        let dir = try TemporaryDirectory()
        let source = try dir.makeDirectory("systemd")
        let service = "[Service]\nEnvironmentFile=-/etc/default/gpsfix\nExecStart=/usr/local/bin/gpsfix serve $GPSFIX_OPTIONS\nExecStopPost=-/usr/bin/gpsfix --version\n"
        let socket = "[Socket]\nListenStream=127.0.0.1:2947\n"
        let defaults = "GPSFIX_OPTIONS=\"\"\n"
        _ = try dir.write("systemd/gpsfix.service", service)
        _ = try dir.write("systemd/gpsfix.socket", socket)
        _ = try dir.write("systemd/gpsfix.default", defaults)
        let dest = dir.path + "/root"
        let binary = try #require(GPSFixBinary.url).path
        let staged = ["DESTDIR=\(dest)", "BINARY=\(binary)", "GENERATED=\(dir.path)/generated", "SYSTEMD_SRC=\(source)", "PREFIX=/opt/gpsfix"]

        // When
        let first = try await make(["install"] + staged)

        // Then: the units under the prefix's systemd directory, their Exec lines on the binary installed
        #expect(first.status == 0, "\(first.out)\(first.err)")
        let units = dest + "/opt/gpsfix/lib/systemd/system/"
        #expect(text(units + "gpsfix.service") == "[Service]\nEnvironmentFile=-/etc/default/gpsfix\nExecStart=/opt/gpsfix/bin/gpsfix serve $GPSFIX_OPTIONS\nExecStopPost=-/opt/gpsfix/bin/gpsfix --version\n")
        #expect(text(units + "gpsfix.socket") == socket)
        #expect(text(dest + "/etc/default/gpsfix") == defaults)
        #expect(FileManager.default.isExecutableFile(atPath: dest + "/opt/gpsfix/bin/gpsfix"))

        // When: the administrator sets options, and gpsfix is installed again
        let edited = defaults + "GPSFIX_OPTIONS=\"--listen 0.0.0.0:2947\"\n"
        try edited.write(toFile: dest + "/etc/default/gpsfix", atomically: false, encoding: .utf8)
        let second = try await make(["install"] + staged)

        // Then: their options stay
        #expect(second.status == 0, "\(second.out)\(second.err)")
        #expect(text(dest + "/etc/default/gpsfix") == edited)
        #expect(second.out.contains("kept \(dest)/etc/default/gpsfix"), "\(second.out)")

        // When: uninstall; Then: everything but the edited options file goes
        let uninstall = try await make(["uninstall"] + staged)
        #expect(uninstall.status == 0, "\(uninstall.out)\(uninstall.err)")
        #expect(files(under: dest) == ["etc/default/gpsfix"])
        #expect(uninstall.out.contains("kept \(dest)/etc/default/gpsfix: it has been changed"), "\(uninstall.out)")

        // When: it was never changed, uninstall takes it too
        try FileManager.default.removeItem(atPath: dest + "/etc/default/gpsfix")
        #expect(try await make(["install"] + staged).status == 0)
        #expect(try await make(["uninstall"] + staged).status == 0)
        #expect(files(under: dest).isEmpty, "left behind: \(files(under: dest))")
    }
}
