import Foundation
import Glibc
import GPSSources
import GPSTestSupport
import Testing

/// The package's directory, from this file's path.
private let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }   // UdevRulesTests.swift, GPSSourcesTests, Tests
    return url.path
}()

private let rulesPath = packageRoot + "/udev/60-gpsfix.rules"
private let rulesName = "60-gpsfix.rules"

/// One rule of a udev rules file: its line number and its `KEY op "value"` assignments.
struct UdevRule {
    struct Assignment: Equatable {
        var key: String
        var op: String
        var value: String
    }

    var line: Int
    var assignments: [Assignment]

    func value(_ key: String, _ op: String) -> String? {
        assignments.first { $0.key == key && $0.op == op }?.value
    }

    /// The rules in `text`: comments and blank lines skipped; nil for a line that does not parse.
    static func parse(_ text: String) -> [(line: Int, rule: UdevRule?)] {
        var rules: [(Int, UdevRule?)] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.isEmpty || line.hasPrefix("#") { continue }
            rules.append((index + 1, parseLine(Array(line), number: index + 1)))
        }
        return rules
    }

    private static func parseLine(_ chars: [Character], number: Int) -> UdevRule? {
        var assignments: [Assignment] = []
        var i = 0
        func skipSeparators() { while i < chars.count, chars[i] == " " || chars[i] == "," || chars[i] == "\t" { i += 1 } }
        skipSeparators()
        while i < chars.count {
            var key = ""
            while i < chars.count, !"=!+-:".contains(chars[i]) { key.append(chars[i]); i += 1 }
            var op = ""
            while i < chars.count, "=!+-:".contains(chars[i]) { op.append(chars[i]); i += 1 }
            guard !key.isEmpty, ["==", "!=", "=", "+=", "-=", ":="].contains(op),
                  i < chars.count, chars[i] == "\"" else { return nil }
            i += 1
            var value = ""
            while i < chars.count, chars[i] != "\"" { value.append(chars[i]); i += 1 }
            guard i < chars.count else { return nil }
            i += 1
            assignments.append(Assignment(key: key.trimmingCharacters(in: .whitespaces), op: op, value: value))
            guard i == chars.count || chars[i] == "," else { return nil }
            skipSeparators()
        }
        return assignments.isEmpty ? nil : UdevRule(line: number, assignments: assignments)
    }
}

@Suite("udev rules file")
struct UdevRulesFileTests {
    let rules: [(line: Int, rule: UdevRule?)]

    /// The receivers' rules: every one but the PPS devices'.
    let pps: [(line: Int, rule: UdevRule?)]

    init() throws {
        let all = UdevRule.parse(try String(contentsOfFile: rulesPath, encoding: .utf8))
        pps = all.filter { $0.rule?.value("SUBSYSTEM", "==") == "pps" }
        rules = all.filter { $0.rule?.value("SUBSYSTEM", "==") != "pps" }
    }

    @Test("One rule gives kernel PPS devices to dialout, 0660, and touches nothing else of them")
    func ppsDevices() throws {
        #expect(pps.count == 1)
        let rule = try #require(pps.first?.rule)
        #expect(rule.value("GROUP", "=") == "dialout" && rule.value("MODE", "=") == "0660")
        #expect(rule.assignments.count == 3, "\(rule)")
    }

    @Test("Every rule line parses")
    func everyLineParses() {
        #expect(!rules.isEmpty)
        for (line, rule) in rules {
            #expect(rule != nil, "\(rulesName):\(line) does not parse as KEY op \"value\", ...")
        }
    }

    @Test("The rules' USB IDs are exactly KnownGPS's table")
    func idsMatchTable() {
        // Given
        let table = Set(KnownGPS.table.map { "\($0.vendorID):\($0.productID)" })

        // When
        let inFile = rules.compactMap(\.rule).compactMap { rule -> String? in
            guard let vendor = rule.value("ATTRS{idVendor}", "=="),
                  let product = rule.value("ATTRS{idProduct}", "==") else { return nil }
            return "\(vendor):\(product)"
        }

        // Then
        #expect(Set(inFile) == table)
        #expect(inFile.count == Set(inFile).count, "an ID appears twice")
        #expect(inFile.count == rules.count, "a rule that matches no USB ID")
    }

    @Test("Every rule is for ttys and sets gps%n, group dialout, mode 0660 and ID_MM_DEVICE_IGNORE")
    func everyRuleSetsEverything() {
        for case let (line, rule?) in rules {
            let at = "\(rulesName):\(line)"
            #expect(rule.value("SUBSYSTEM", "==") == "tty", "\(at)")
            #expect(rule.value("SYMLINK", "+=") == "gps%n", "\(at)")
            #expect(rule.value("GROUP", "=") == "dialout", "\(at)")
            #expect(rule.value("MODE", "=") == "0660", "\(at)")
            #expect(rule.value("ENV{ID_MM_DEVICE_IGNORE}", "=") == "1", "\(at)")
            #expect(rule.value("ATTRS{idVendor}", "==")?.allSatisfy { $0.isHexDigit && !$0.isUppercase } == true, "\(at)")
        }
    }

    @Test("The parser used here rejects malformed lines (so the checks above are not vacuous)")
    func parserRejectsMalformed() {
        let parsed = UdevRule.parse("""
            # comment
            SUBSYSTEM=="tty", ATTRS{idVendor}="1546
            SUBSYSTEM=="tty" GROUP="dialout"
            SUBSYSTEM=="tty", MODE="0660"
            """)
        #expect(parsed.map(\.line) == [2, 3, 4])
        #expect(parsed.map { $0.rule == nil } == [true, true, false])
    }
}

/// Runs Tools/udev-test.sh and splits its output into its "=== …" sections.
enum UdevTestRun {
    static var canRun: Bool {
        getuid() == 0 && onPath("unshare") && onPath("udevadm")
    }

    static func onPath(_ tool: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/sbin:/usr/bin:/sbin:/bin"
        return path.split(separator: ":").contains { access("\($0)/\(tool)", X_OK) == 0 }
    }

    struct Output {
        var status: Int32
        var sections: [(title: String, lines: [String])]
        var stderr: String

        func section(_ prefix: String) -> [String]? {
            sections.first { $0.title.hasPrefix(prefix) }?.lines
        }
    }

    static func run(rules: String, devices: [String]) throws -> Output {
        // posix_spawn, not Foundation's Process (see runProgram). udevadm's output goes to
        // stdout (2>&1 in the script); stderr holds a line or two at most.
        let result = try runProgramBlocking(["/bin/sh", packageRoot + "/Tools/udev-test.sh", rules] + devices)
        let text = result.out, stderr = result.err
        var sections: [(String, [String])] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if ["=== real ", "=== fake ", "=== end"].contains(where: { line.hasPrefix($0) }) {
                sections.append((String(line.dropFirst(4)), []))
            } else if !sections.isEmpty {
                sections[sections.count - 1].1.append(String(line))
            }
        }
        return Output(status: result.status, sections: sections, stderr: stderr)
    }

    /// Lines where udev complains about the rules file: parse errors ("FILE:LINE message", no
    /// device in front) and anything about the file that reads like a failure.
    static func complaints(_ lines: [String], file: String = rulesName) -> [String] {
        let words = ["invalid", "error", "unknown", "ignoring", "failed", "unable", "cannot", "not "]
        return lines.filter { line in
            guard line.contains(file), !line.hasPrefix("Reading rules file:") else { return false }
            let lower = line.lowercased()
            return line.hasPrefix("/") || words.contains { lower.contains($0) }
        }
    }

    /// What the live machine shows that a leaking udevadm test would change.
    static func liveState() -> [String] {
        let fm = FileManager.default
        let dev = ((try? fm.contentsOfDirectory(atPath: "/dev")) ?? []).sorted()
        let char = ((try? fm.contentsOfDirectory(atPath: "/dev/char")) ?? []).sorted()
        let run = (fm.subpaths(atPath: "/run/udev") ?? []).sorted()
        return dev.map { "dev/" + $0 } + char.map { "dev/char/" + $0 } + run.map { "run/udev/" + $0 }
    }
}

@Suite("udev rules under udevadm", .serialized, .timeLimit(.minutes(1)),
       .enabled(if: UdevTestRun.canRun, "needs root, unshare and udevadm: the udev rules were not run through udev"))
struct UdevadmTests {
    /// Every known ID on its own fake port: cdc_acm receivers on ttyACM*, the others on ttyUSB*,
    /// numbered apart so each rule's gps%n is its own.
    static let known: [(id: String, kernel: String)] = KnownGPS.table.enumerated().map { index, gps in
        let acm = ["1546", "0e8d"].contains(gps.vendorID)
        return ("\(gps.vendorID):\(gps.productID)", (acm ? "ttyACM" : "ttyUSB") + String(index))
    }
    static let generic: [(id: String, kernel: String)] = [
        ("067b:2303", "ttyUSB20"), ("0403:6001", "ttyUSB21"), ("10c4:ea60", "ttyUSB22"), ("1a86:7523", "ttyUSB23"),
    ]

    static var dialoutGID: String? {
        guard let group = getgrnam("dialout") else { return nil }
        return String(group.pointee.gr_gid)
    }

    @Test("udevadm reads the rules without a complaint, gives each known receiver /dev/gpsN, dialout 0660 and ID_MM_DEVICE_IGNORE, and leaves generic bridges alone; the live /dev and /run are untouched")
    func rulesUnderUdevadm() throws {
        // Given
        let before = UdevTestRun.liveState()
        let devices = (Self.known + Self.generic).map { "\($0.id):\($0.kernel)" }

        // When
        let output = try UdevTestRun.run(rules: rulesPath, devices: devices)

        // Then: it ran, read our file, and udev said nothing against it
        #expect(output.status == 0, "udev-test.sh: \(output.stderr)")
        #expect(output.sections.last?.title == "end", "the script stopped early: \(output.stderr)")
        let real = try #require(output.section("real /sys/class/tty/"), "no real tty to test the rules on")
        #expect(real.contains("Reading rules file: /etc/udev/rules.d/\(rulesName)"))
        let everything = output.sections.flatMap(\.lines)
        #expect(UdevTestRun.complaints(everything).isEmpty, "udevadm: \(UdevTestRun.complaints(everything))")

        // Then: each known receiver gets what the rules promise
        let gid = try #require(Self.dialoutGID, "no group dialout on this machine")
        for (id, kernel) in Self.known {
            let lines = try #require(output.section("fake \(id) \(kernel)"), "no run for \(id)")
            let number = String(kernel.drop { !$0.isNumber })
            #expect(lines.contains { $0.hasPrefix("\(kernel): ") && $0.contains(rulesName) && $0.hasSuffix("LINK 'gps\(number)'") },
                    "\(id): \(lines.joined(separator: "\n"))")
            #expect(lines.contains("DEVLINKS=/dev/gps\(number)"), "\(id)")
            #expect(lines.contains("ID_MM_DEVICE_IGNORE=1"), "\(id)")
            #expect(lines.contains { $0.contains("Setting permissions /dev/\(kernel), uid=0, gid=\(gid), mode=0660") }, "\(id)")
        }

        // Then: generic bridges are not touched by our rules
        for (id, kernel) in Self.generic {
            let lines = try #require(output.section("fake \(id) \(kernel)"), "no run for \(id)")
            #expect(lines.contains { $0.hasPrefix("DEVNAME=/dev/\(kernel)") }, "\(id): udevadm did not process it")
            #expect(!lines.contains { $0.hasPrefix("\(kernel): ") && $0.contains(rulesName) }, "\(id) is claimed")
            #expect(!lines.contains { $0.hasPrefix("DEVLINKS=") || $0 == "ID_MM_DEVICE_IGNORE=1" }, "\(id)")
        }

        // Then: the machine's /dev and /run saw none of it
        #expect(UdevTestRun.liveState() == before)
        #expect(!FileManager.default.fileExists(atPath: "/dev/gps0"))
    }

    @Test("A broken rules file is caught: udevadm's complaints about it are found in its output")
    func brokenRulesAreCaught() throws {
        // Given
        let dir = try TemporaryDirectory()
        let broken = try dir.write(rulesName, """
            SUBSYSTEM=="tty", ATTRS{idVendor}=="1546", ATTRS{idProduct}=="01a8", SYMLINK+="gps%n", GRUOP="dialout"
            SUBSYSTEM=="tty", ATTRS{idVendor}="1546", MODE="0660"
            SUBSYSTEM=="tty", GROUP="no-such-group-gpsfix", MODE="0660"
            """)

        // When
        let output = try UdevTestRun.run(rules: broken, devices: [])

        // Then
        #expect(output.status == 0)
        let complaints = UdevTestRun.complaints(output.sections.flatMap(\.lines))
        #expect(complaints.contains { $0.contains("\(rulesName):1") }, "\(complaints)")
        #expect(complaints.contains { $0.contains("\(rulesName):2") }, "\(complaints)")
        #expect(complaints.contains { $0.contains("\(rulesName):3") }, "\(complaints)")
    }
}
