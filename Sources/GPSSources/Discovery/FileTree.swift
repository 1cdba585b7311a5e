import GPSSystem

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

    /// The most names read from one directory: `/dev` and `/sys/class/tty` hold hundreds.
    static let entryLimit = 65_536

    /// The names in a directory (no `.` or `..`), in natural order, at most `entryLimit`;
    /// empty when it cannot be read.
    func list(_ directory: String) -> [String] {
        guard case .success(let names) = FileSystem.entries(of: host(directory), limit: Self.entryLimit) else { return [] }
        return names.sorted(by: naturallyBefore)
    }

    /// Where `path` finally leads, inside the tree: nil when it dangles, leaves the tree or is a directory.
    func resolve(_ path: String) -> String? {
        guard let real = Self.realPath(host(path)), let resolved = inside(real) else { return nil }
        guard let status = try? FileStatus(path: real), status.kind != .directory else { return nil }
        return resolved
    }

    /// The directory `path` leads to, inside the tree, or nil.
    func resolveDirectory(_ path: String) -> String? {
        guard let real = Self.realPath(host(path)), let resolved = inside(real) else { return nil }
        guard let status = try? FileStatus(path: real), status.kind == .directory else { return nil }
        return resolved
    }

    /// The last component of a symlink's target (`driver` → `cdc_acm`), even when the target dangles.
    func linkTargetName(_ path: String) -> String? {
        guard let target = FileSystem.linkTarget(host(path)) else { return nil }
        let name = target.split(separator: "/").last.map(String.init)
        return name?.isEmpty == false ? name : nil
    }

    /// A small attribute file's text, blanks trimmed; nil when missing, unreadable or empty.
    func attribute(_ path: String) -> String? {
        guard let bytes = FileSystem.firstBytes(of: host(path), limit: 256) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        let trimmed = text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()
        return trimmed.isEmpty ? nil : String(trimmed)
    }

    static func realPath(_ path: String) -> String? {
        FileSystem.realPath(path)
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
