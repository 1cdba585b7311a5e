import Testing
import GPSSystem

/// GPSSystem is the one module that calls the system: no other module of the product imports
/// the C library (`Glibc`, or its other names), whole or in part, except the pure functions
/// named in `pureImports`. The rule and its reasons are in ARCHITECTURE.md ("What may be
/// imported where"). Files read from the source tree, found from this file's path.
@Suite("GPSSystem is the boundary: no other module imports the C library")
struct BoundaryTests {
    /// The names of the system's C library as Swift imports it, here and on other systems.
    static let systemModules: Set<String> = ["Glibc", "SwiftGlibc", "Musl", "Darwin", "ucrt", "WinSDK", "Android", "Bionic"]

    /// What a scoped import may bring in outside GPSSystem: functions that compute, reading no
    /// descriptor, no `errno`, no clock and no process state (`import func Glibc.floor`).
    static let pureImports: Set<String> = [
        "floor", "ceil", "trunc", "round", "fabs", "fmod", "remainder", "sqrt", "cbrt", "hypot", "pow", "exp", "exp2",
        "log", "log2", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh",
    ]

    /// Files outside GPSSystem that may import the C library, each with why: none. Kept as a
    /// list so that an exception is written down with its reason, and taken off (an entry that
    /// no longer imports it fails) once it is gone.
    static let allowed: [String: String] = [:]

    /// The directories whose Swift files are product modules: the libraries, the CLI and the
    /// engine checks apps' fuzzing shares. The fuzz and bench executables are harnesses, left out.
    static let productDirectories = ["Sources", "Fuzz/EngineCheck"]

    static let root: String = {
        // …/Tests/GPSSystemTests/BoundaryTests.swift → the package.
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    @Test("Outside GPSSystem, only the listed files import the C library, and only pure functions may be imported by name")
    func noOtherModuleImportsTheCLibrary() throws {
        let files = try Self.productDirectories.flatMap { try Self.swiftFiles(under: $0) }
        #expect(files.count > 50, "the source tree was not found from \(Self.root)")
        var offenders: [String] = []
        var stillImporting: Set<String> = []
        for file in files where !file.hasPrefix("Sources/GPSSystem/") {
            for line in try Self.systemImports(in: file) {
                if let name = line.scopedName, Self.pureImports.contains(name) { continue }
                if Self.allowed[file] != nil {
                    stillImporting.insert(file)
                    continue
                }
                offenders.append("\(file):\(line.number): \(line.text)")
            }
        }
        #expect(offenders.isEmpty, """
            Only GPSSystem calls the system. Call it through GPSSystem's types (FileDescriptor, \
            PollSet, TCPListener, FileSystem…), or add what is missing there:
            \(offenders.joined(separator: "\n"))
            """)
        let stale = Set(Self.allowed.keys).subtracting(stillImporting).sorted()
        #expect(stale.isEmpty, "no longer import the C library: take them off BoundaryTests.allowed: \(stale)")
    }

    @Test("GPSSystem itself imports the C library (the test reads what it thinks it reads)")
    func theBoundaryImportsIt() throws {
        let imports = try Self.systemImports(in: "Sources/GPSSystem/FileDescriptor.swift")
        #expect(imports.contains { $0.module == "Glibc" })
    }

    @Test("What counts as importing the C library, and what does not", arguments: [
        ("import Glibc", "Glibc", nil),
        ("public import Glibc", "Glibc", nil),
        ("@_exported import Glibc", "Glibc", nil),
        ("@preconcurrency internal import SwiftGlibc", "SwiftGlibc", nil),
        ("import func Glibc.floor", "Glibc", "floor"),
        ("import struct Glibc.pollfd", "Glibc", "pollfd"),
        ("  import Musl // on Alpine", "Musl", nil),
        ("import GPSSystem", nil, nil),
        ("// import Glibc", nil, nil),
        ("let important = 1", nil, nil),
    ] as [(String, String?, String?)])
    func parsesImports(line: String, module: String?, scoped: String?) {
        let parsed = Self.ImportLine(number: 1, text: line).flatMap { Self.systemModules.contains($0.module) ? $0 : nil }
        #expect(parsed?.module == module)
        #expect(parsed?.scopedName == scoped)
    }

    // MARK: - Reading the tree

    struct ImportLine {
        let number: Int
        let text: String
        /// The module imported, `Glibc` of `import func Glibc.floor`.
        let module: String
        /// `floor` of `import func Glibc.floor`; nil for a whole module.
        let scopedName: String?

        /// Nil for a line that imports nothing.
        init?(number: Int, text: String) {
            var words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            if let comment = words.firstIndex(where: { $0.hasPrefix("//") }) { words.removeSubrange(comment...) }
            while let first = words.first, first.hasPrefix("@") || ["public", "package", "internal", "fileprivate", "private"].contains(first) {
                words.removeFirst()
            }
            guard words.first == "import", words.count >= 2 else { return nil }
            words.removeFirst()
            let kinds: Set<String> = ["func", "var", "let", "struct", "class", "enum", "protocol", "typealias"]
            if kinds.contains(words[0]) { words.removeFirst() }
            guard let path = words.first else { return nil }
            let parts = path.split(separator: ".").map(String.init)
            self.number = number
            self.text = text.trimmingPrefix { $0 == " " }.description
            module = parts[0]
            scopedName = parts.count > 1 ? parts.dropFirst().joined(separator: ".") : nil
        }
    }

    /// The lines of `file` that import the system's C library.
    static func systemImports(in file: String) throws -> [ImportLine] {
        let text = try read(root + "/" + file)
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            guard let parsed = ImportLine(number: index + 1, text: String(line)), systemModules.contains(parsed.module) else { return nil }
            return parsed
        }
    }

    /// The Swift files under `directory` (relative to the package), relative paths, sorted.
    static func swiftFiles(under directory: String) throws -> [String] {
        var found: [String] = []
        var pending = [directory]
        while let next = pending.popLast() {
            for name in try FileSystem.entries(of: root + "/" + next).get() {
                let path = next + "/" + name
                let status = try FileStatus(linkAt: root + "/" + path)
                if status.kind == .directory {
                    pending.append(path)
                } else if name.hasSuffix(".swift") {
                    found.append(path)
                }
            }
        }
        return found.sorted()
    }

    static func read(_ path: String) throws -> String {
        let fd = try FileDescriptor.open(path, .readOnly)
        defer { fd.close() }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let result = try chunk.withUnsafeMutableBytes { try fd.read(into: $0) }
            guard case .processed(let count) = result, count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
