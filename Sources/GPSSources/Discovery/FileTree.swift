import Glibc

/// The few read-only filesystem questions discovery asks, all relative to a root directory so a
/// test can build a fake `/dev` and `/sys` in a temporary directory. Every answer is optional:
/// a missing file, a dangling link or an unreadable attribute is "don't know", never an error.
struct FileTree {
    /// The root with symlinks resolved and no trailing slash ("" for "/").
    let root: String

    init(root: String) {
        var base = root.isEmpty ? "/" : root
        if let real = Self.realPath(base) { base = real }
        while base.hasSuffix("/") { base.removeLast() }
        self.root = base
    }

    /// The host path of `path` (an absolute path inside the tree).
    func host(_ path: String) -> String { root + path }

    /// `path` inside the tree for a host path, or nil when it lies outside the tree.
    func inside(_ hostPath: String) -> String? {
        if root.isEmpty { return hostPath }
        if hostPath == root { return "/" }
        guard hostPath.hasPrefix(root + "/") else { return nil }
        return String(hostPath.dropFirst(root.count))
    }

    /// The names in a directory (no `.` or `..`), in natural order; empty when it cannot be read.
    func list(_ directory: String) -> [String] {
        guard let dir = opendir(host(directory)) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted(by: naturallyBefore)
    }

    /// Where `path` finally leads, inside the tree: nil when it dangles, leaves the tree or is a directory.
    func resolve(_ path: String) -> String? {
        guard let real = Self.realPath(host(path)), let resolved = inside(real) else { return nil }
        var st = stat()
        guard stat(real, &st) == 0, (st.st_mode & S_IFMT) != S_IFDIR else { return nil }
        return resolved
    }

    /// The directory `path` leads to, inside the tree, or nil.
    func resolveDirectory(_ path: String) -> String? {
        guard let real = Self.realPath(host(path)), let resolved = inside(real) else { return nil }
        var st = stat()
        guard stat(real, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else { return nil }
        return resolved
    }

    /// The last component of a symlink's target (`driver` → `cdc_acm`), even when the target dangles.
    func linkTargetName(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(host(path), &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let target = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let name = target.split(separator: "/").last.map(String.init)
        return name?.isEmpty == false ? name : nil
    }

    /// A small attribute file's text, blanks trimmed; nil when missing, unreadable or empty.
    func attribute(_ path: String) -> String? {
        let fd = open(host(path), O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 256)
        var n: Int
        repeat {
            n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        } while n < 0 && errno == EINTR
        guard n > 0 else { return nil }
        let text = String(decoding: buffer[0..<n], as: UTF8.self)
        let trimmed = text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()
        return trimmed.isEmpty ? nil : String(trimmed)
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// Natural order: `gps2` before `gps10`, `ttyACM1` before `ttyACM10`.
func naturallyBefore(_ a: String, _ b: String) -> Bool {
    let x = naturalKey(a), y = naturalKey(b)
    if x.stem != y.stem { return x.stem < y.stem }
    if x.number != y.number { return (x.number ?? -1) < (y.number ?? -1) }
    return a < b
}

/// A name split into its text and its trailing number: `ttyACM10` → (`ttyACM`, 10).
private func naturalKey(_ name: String) -> (stem: Substring, number: Int?) {
    let digits = name.reversed().prefix { $0.isASCII && $0.isNumber }
    guard !digits.isEmpty, digits.count <= 9 else { return (name[...], nil) }
    return (name.dropLast(digits.count), Int(String(digits.reversed())))
}
