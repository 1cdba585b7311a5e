import Glibc
import GPSTestSupport
import Foundation
import Testing
@testable import GPSFixCLI

/// `make deb`'s packaging (Tools/deb/build.sh) run on the binary the tests run: every file where
/// Debian puts it, DEBIAN/ as dpkg wants it, and maintainer scripts that leave systemd and udev
/// alone where they are not running. Installing, running and purging the package is
/// Tools/deb/root-check.sh's part, in a Debian root.
@Suite("make deb's package", .enabled(if: GPSFixBinary.isAvailable, "gpsfix binary not found"),
       .enabled(if: [DebTools.dpkgDeb, DebTools.dpkgShlibdeps, DebTools.strip, DocTools.make].allSatisfy(ServeTools.has),
                "dpkg-dev, binutils or make is not installed"),
       .timeLimit(.minutes(1)), .serialized)
struct DebPackageTests {
    private func text(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    @Test("The package has the binary, page, completions, udev rules and units in Debian's places, with control, conffiles and md5sums to match")
    func layout() async throws {
        // Given: the binary the tests run, and a directory to build in
        let dir = try TemporaryDirectory()
        let binary = try #require(GPSFixBinary.url).path
        let arch = try await runTool("/usr/bin/dpkg", ["--print-architecture"]).out.trimmingCharacters(in: .whitespacesAndNewlines)

        // When
        // (The tests' binary may link the Swift runtime as a shared library, which a package
        // for others must not; the layout is the same.)
        let build = try await runTool("/usr/bin/env", ["-u", "MAKEFLAGS", "-u", "MFLAGS", "-u", "MAKELEVEL", "DEB_ALLOW_SHARED_SWIFT=1",
                                                       projectRoot.path + "/Tools/deb/build.sh", binary, dir.path + "/work", dir.path + "/out", "7"],
                                      within: .seconds(50))

        // Then: the package, named by the binary's own version and the revision asked for
        #expect(build.status == 0, "\(build.out)\(build.err)")
        let deb = dir.path + "/out/gpsfix_\(GPSFixCLI.version)-7_\(arch).deb"
        #expect(FileManager.default.fileExists(atPath: deb), "\(build.out)")
        let root = dir.path + "/work/debian/gpsfix"
        let staged = files(under: root).filter { !$0.hasPrefix("DEBIAN/") }
        #expect(staged == [
            "usr/bin/gpsfix",
            "usr/share/man/man1/gpsfix.1.gz",
            "usr/share/bash-completion/completions/gpsfix",
            "usr/share/zsh/vendor-completions/_gpsfix",
            "usr/lib/udev/rules.d/60-gpsfix.rules",
            "usr/lib/systemd/system/gpsfix.service",
            "usr/lib/systemd/system/gpsfix.socket",
            "etc/default/gpsfix",
            "usr/share/doc/gpsfix/copyright",
            "usr/share/doc/gpsfix/changelog.Debian.gz",
            "usr/share/lintian/overrides/gpsfix",
        ])
        #expect(text(root + "/usr/lib/systemd/system/gpsfix.service")?.contains("\nExecStart=/usr/bin/gpsfix serve ") == true)

        // DEBIAN/: the options file the one conffile, a checksum for each file, nothing left unfilled
        #expect(text(root + "/DEBIAN/conffiles") == "/etc/default/gpsfix\n")
        let summed = Set((text(root + "/DEBIAN/md5sums") ?? "").split(separator: "\n").map { String($0.dropFirst(34)) })
        #expect(summed == staged)
        let control = try #require(text(root + "/DEBIAN/control"))
        #expect(control.contains("\nVersion: \(GPSFixCLI.version)-7\n"))
        #expect(control.contains("\nArchitecture: \(arch)\n"))
        for placeholder in ["@VERSION@", "@ARCH@", "@SIZE@", "@DEPENDS@"] {
            #expect(!control.contains(placeholder), "\(placeholder) left in control:\n\(control)")
        }
        let depends = control.split(separator: "\n").first { $0.hasPrefix("Depends: ") } ?? ""
        for library in ["libc6", "libgps", "libmosquitto1"] { #expect(depends.contains(library), "\(depends)") }
        for script in ["postinst", "prerm", "postrm"] {
            #expect(FileManager.default.isExecutableFile(atPath: root + "/DEBIAN/" + script))
        }

        // The archive: every member root's, whoever built it
        let contents = try await runTool(DebTools.dpkgDeb, ["--contents", deb])
        #expect(contents.status == 0)
        let owners = Set(contents.out.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true)[1] })
        #expect(owners == ["root/root"])

        // The page in the package is the binary's own
        let page = try await runTool("/bin/sh", ["-c", "gzip -dc '\(root)/usr/share/man/man1/gpsfix.1.gz'"])
        #expect(page.out == ManPage.text)
    }

    @Test("Maintainer scripts touch systemd only when it is the init system and udev only when its daemon runs")
    func maintainerScripts() async throws {
        // Given: stand-ins for the tools the scripts may call, each noting its calls
        let dir = try TemporaryDirectory()
        let bin = try dir.makeDirectory("bin")
        let log = dir.path + "/calls"
        for tool in ["deb-systemd-helper", "deb-systemd-invoke", "systemctl", "udevadm"] {
            // A first install: deb-systemd-helper knows nothing of the units yet.
            let script = "#!/bin/sh\necho \"\(tool) $*\" >> '\(log)'\n[ \"$1\" = debian-installed ] && exit 1\nexit 0\n"
            let path = try dir.write("bin/" + tool, script)
            chmod(path, 0o755)
        }
        let scripts = projectRoot.path + "/Tools/deb/"

        // When: install, remove and purge, as dpkg runs them
        for (script, arguments) in [("postinst", ["configure", ""]), ("prerm", ["remove"]), ("postrm", ["remove"]), ("postrm", ["purge"])] {
            let run = try await runTool("/usr/bin/env", ["PATH=\(bin):/usr/bin:/bin", "/bin/sh", "-e", scripts + script] + arguments)
            #expect(run.status == 0, "\(script) \(arguments): \(run.out)\(run.err)")
        }

        // Then: deb-systemd-helper keeps its records, and nothing is enabled or started
        let calls = (text(log) ?? "").split(separator: "\n").map(String.init)
        #expect(calls.contains("deb-systemd-helper update-state gpsfix.socket"))
        #expect(calls.contains("deb-systemd-helper update-state gpsfix.service"))
        #expect(calls.contains("deb-systemd-helper purge gpsfix.socket gpsfix.service"))
        #expect(!calls.contains { $0.hasPrefix("deb-systemd-helper enable") || $0.contains(" start") }, "\(calls)")
        // systemctl and deb-systemd-invoke only under systemd, udevadm only with udevd listening
        let systemd = FileManager.default.fileExists(atPath: "/run/systemd/system")
        var socket = stat()
        let udev = stat("/run/udev/control", &socket) == 0 && (socket.st_mode & S_IFMT) == S_IFSOCK
        #expect(calls.contains { $0.hasPrefix("systemctl ") || $0.hasPrefix("deb-systemd-invoke ") } == systemd, "\(calls)")
        #expect(calls.contains { $0.hasPrefix("udevadm ") } == udev, "\(calls)")
        if udev {
            #expect(calls.contains("udevadm control --reload-rules"))
        }
    }
}

enum DebTools {
    static let dpkgDeb = "/usr/bin/dpkg-deb"
    static let dpkgShlibdeps = "/usr/bin/dpkg-shlibdeps"
    static let strip = "/usr/bin/strip"
}
