import Glibc

/// What kind of thing a path or descriptor is, and its size: `stat` and `fstat`.
public struct FileStatus: Sendable, Equatable {
    /// What a file is, by its mode's type bits.
    public enum Kind: Sendable, Equatable {
        /// A file of bytes (`S_IFREG`).
        case regular
        /// A directory (`S_IFDIR`).
        case directory
        /// A character device: a tty, `/dev/null` (`S_IFCHR`).
        case characterDevice
        /// A block device: a disk (`S_IFBLK`).
        case blockDevice
        /// A named pipe (`S_IFIFO`).
        case fifo
        /// A unix socket (`S_IFSOCK`).
        case socket
        /// A symbolic link, when not followed (`S_IFLNK`).
        case symbolicLink
        /// Anything else.
        case other
    }

    /// What it is.
    public let kind: Kind
    /// Bytes, for a regular file.
    public let size: Int64
    /// The permission bits (`0o644`).
    public let permissions: UInt32
    /// The device it is on and its number there: two names for one file have both the same.
    public let device: UInt64
    /// Its number on that device.
    public let inode: UInt64
    /// For a device node, the device it stands for.
    public let representedDevice: UInt64
    /// The group that owns it.
    public let group: UInt32

    init(_ st: stat) {
        switch st.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        case S_IFIFO: kind = .fifo
        case S_IFSOCK: kind = .socket
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        size = Int64(st.st_size)
        permissions = UInt32(st.st_mode & 0o7777)
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
        representedDevice = UInt64(st.st_rdev)
        group = UInt32(st.st_gid)
    }

    /// What `path` is, following symbolic links.
    public init(path: String) throws(SystemError) {
        var st = stat()
        _ = try retryingInterrupts { stat(path, &st) }
        self.init(st)
    }

    /// What `path` itself is, a symbolic link not followed.
    public init(linkAt path: String) throws(SystemError) {
        var st = stat()
        _ = try retryingInterrupts { lstat(path, &st) }
        self.init(st)
    }
}

extension FileDescriptor {
    /// What it is open on.
    public func status() throws(SystemError) -> FileStatus {
        var st = stat()
        let fd = rawValue
        _ = try retryingInterrupts { fstat(fd, &st) }
        return FileStatus(st)
    }

    /// Where the next read or write is, in bytes from the start.
    public func offset() throws(SystemError) -> Int64 {
        let fd = rawValue
        return Int64(try retryingInterrupts { lseek(fd, 0, SEEK_CUR) })
    }

    /// Sets the permission bits (`0o600`).
    public func setPermissions(_ permissions: UInt32) throws(SystemError) {
        let fd = rawValue
        _ = try retryingInterrupts { fchmod(fd, mode_t(permissions)) }
    }

    /// Moves to `offset` bytes from the start.
    public func seek(to offset: Int64) throws(SystemError) {
        let fd = rawValue
        _ = try retryingInterrupts { lseek(fd, off_t(offset), SEEK_SET) }
    }
}
