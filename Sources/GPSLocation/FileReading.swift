public import GPSSystem

/// Reads a whole file, mapping the system's errors to ones a person can act on.
public func readWholeFile(_ path: String) throws(LocationError) -> [UInt8] {
    do throws(SystemError) {
        let fd = try FileDescriptor.open(path, .readOnly)
        defer { fd.close() }
        let status = try fd.status()
        if status.kind == .directory { throw .isADirectory }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(max(Int(status.size), 0))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let result = try chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemError) in try fd.read(into: buffer) }
            }.get()
            // A blocking file never says "not now"; a FIFO opened without a writer may.
            guard case .processed(let n) = result, n > 0 else { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    } catch .isADirectory {
        throw .fileUnreadable(path: path, reason: "it is a directory")
    } catch {
        throw LocationError(reading: path, error)
    }
}

extension LocationError {
    /// What a failed `open`, `stat` or `read` of `path` means to a person: missing, not theirs
    /// to read, or the system's own words for the rest.
    public init(reading path: String, _ error: SystemError) {
        switch error {
        case .noSuchFile, .notADirectory: self = .fileNotFound(path: path)
        case .permissionDenied, .notPermitted: self = .permissionDenied(path: path, group: nil)
        default: self = .fileUnreadable(path: path, reason: error.description)
        }
    }

    /// As `init(reading:_:)`, from the `errno` value.
    public init(reading path: String, errno code: Int32) {
        self.init(reading: path, SystemError(rawValue: code))
    }
}
