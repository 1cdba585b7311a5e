import Foundation

/// A directory of its own under the system's temporary directory, removed when released.
public final class TemporaryDirectory: Sendable {
    public let path: String

    public init() throws {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("gpsfix-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `contents` to `name` in this directory and returns its path.
    public func write(_ name: String, _ contents: String) throws -> String {
        try write(name, bytes: Array(contents.utf8))
    }

    public func write(_ name: String, bytes: [UInt8]) throws -> String {
        let file = path + "/" + name
        guard FileManager.default.createFile(atPath: file, contents: Data(bytes)) else {
            throw CocoaError(.fileWriteUnknown)
        }
        return file
    }

    public func makeDirectory(_ name: String) throws -> String {
        let dir = path + "/" + name
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }
}
