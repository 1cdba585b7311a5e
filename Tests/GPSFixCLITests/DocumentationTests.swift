import Foundation
import GPSTestSupport
import Testing

/// Every public symbol of every library product is documented: the symbol graphs of the
/// modules this test run was built with, read by Tools/docs/undocumented.py (what `make docs`
/// ends with, without docc's rendering).
@Suite("Documentation", .enabled(if: DocumentationCheck.isAvailable, "needs swift-symbolgraph-extract and python3"))
struct DocumentationTests {
    @Test("No public symbol of a library product is left without a doc comment")
    func everyPublicSymbolDocumented() throws {
        let binary = try #require(GPSFixBinary.url, "the build's products directory is found through gpsfix beside the tests")
        let output = try TemporaryDirectory()
        let result = try DocumentationCheck.run(bin: binary.deletingLastPathComponent().path, out: output.path)
        let summary = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        // "undocumented: 0 of 1561": the check must have read the modules, not an empty list.
        let counts = summary.split(separator: " ").compactMap { Int($0) }
        #expect(counts.count == 2 && counts[1] > 1000, "the check read no symbols: \(result.stdout) \(result.stderr)")
        #expect(result.status == 0 && counts.first == 0, """
            Public symbols without documentation (write a /// comment: what it is in the domain, \
            units, range, what nil means):
            \(result.stdout)\(result.stderr)
            """)
    }
}

enum DocumentationCheck {
    static let script = projectRoot.appendingPathComponent("Tools/docs/build.sh").path

    static var isAvailable: Bool {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        func onPath(_ name: String) -> Bool { paths.contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") } }
        return onPath("swift-symbolgraph-extract") && onPath("python3")
    }

    /// `Tools/docs/build.sh --symbols-only` on the products in `bin`, its graphs under `out`.
    static func run(bin: String, out: String) throws -> (status: Int32, stdout: String, stderr: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["GPSFIX_BIN"] = bin
        environment["GPSFIX_DOCS_OUT"] = out
        // posix_spawn, not Foundation's Process (see runProgram).
        let result = try runProgramBlocking(["/bin/sh", script, "--symbols-only"], environment: environment.map { "\($0.key)=\($0.value)" })
        return (result.status, result.out, result.err)
    }
}
