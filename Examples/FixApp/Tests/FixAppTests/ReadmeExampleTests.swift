import Foundation
import Testing

/// The README's library example is this package's ReadmeExample, word for word: `make test`
/// builds and runs it, so the README cannot show code that does not compile or crashes.
@Suite("The README's example")
struct ReadmeExampleTests {
    @Test("Sources/ReadmeExample/main.swift is the README's first library example")
    func sameAsReadme() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
        let example = try String(contentsOf: repository.appendingPathComponent("Examples/FixApp/Sources/ReadmeExample/main.swift"), encoding: .utf8)
        let library = try #require(readme.range(of: "ARCHITECTURE.md says which way the modules depend"))
        let block = try #require(readme[library.upperBound...].range(of: "```swift\n"))
        let end = try #require(readme[block.upperBound...].range(of: "```"))
        #expect(String(readme[block.upperBound..<end.lowerBound]) == example)
    }
}
