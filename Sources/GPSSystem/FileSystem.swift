import Glibc

/// The read-only questions asked of the file system and `/proc` (device discovery, who holds
/// a port): every answer optional, a missing or unreadable file being "don't know".
public enum FileSystem {
    /// The names in `directory` (no `.` or `..`), in the order the system lists them, at
    /// most `limit` of them; the failure says why it cannot be read.
    public static func entries(of directory: String, limit: Int = .max) -> Result<[String], SystemError> {
        guard let stream = opendir(directory) else { return .failure(SystemError(rawValue: errno)) }
        defer { closedir(stream) }
        var names: [String] = []
        while names.count < limit, let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return .success(names)
    }

    /// `path` with every symlink followed; nil when it leads nowhere.
    public static func realPath(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    /// What the symlink `path` points to, as written in it (it may dangle); nil when it is
    /// not a link.
    public static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// At most `limit` bytes from the start of a small file (a sysfs attribute, a `/proc`
    /// entry), opened without waiting; nil when it cannot be read or is empty.
    public static func firstBytes(of path: String, limit: Int) -> [UInt8]? {
        guard let fd = try? FileDescriptor.open(path, .readOnly, options: .nonBlocking) else { return nil }
        defer { fd.close() }
        var buffer = [UInt8](repeating: 0, count: limit)
        let result = buffer.withUnsafeMutableBytes { raw in Result { () throws(SystemError) in try fd.read(into: raw) } }
        guard case .success(.processed(let count)) = result, count > 0 else { return nil }
        return Array(buffer[0..<count])
    }

    /// The name of group `id`, from the group database (thread-safe `getgrgid_r`).
    public static func groupName(_ id: UInt32) -> String? {
        var group = Glibc.group()
        var result: UnsafeMutablePointer<Glibc.group>?
        var buffer = [CChar](repeating: 0, count: 4096)
        while true {
            // The entry points into `buffer`: read the name before the buffer is let go.
            let (code, name) = buffer.withUnsafeMutableBufferPointer { storage -> (Int32, String?) in
                let code = getgrgid_r(gid_t(id), &group, storage.baseAddress, storage.count, &result)
                guard code == 0, let entry = result, let name = entry.pointee.gr_name else { return (code, nil) }
                return (code, String(cString: name))
            }
            if code == ERANGE && buffer.count < 1 << 20 {
                buffer = [CChar](repeating: 0, count: buffer.count * 4)
                continue
            }
            return name
        }
    }

    /// Whether anything is at `path` (a dangling symlink is nothing).
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Throws why this process may not read `path`, if it may not (`access`, by the real ids).
    public static func checkReadable(_ path: String) throws(SystemError) {
        _ = try retryingInterrupts { access(path, R_OK) }
    }

    /// Removes the file at `path`.
    public static func remove(_ path: String) throws(SystemError) {
        _ = try retryingInterrupts { unlink(path) }
    }

    /// This process's id.
    public static var processID: Int32 { getpid() }
}
