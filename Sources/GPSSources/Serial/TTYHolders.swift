import Glibc

/// Who else has a tty open, from `/proc`: to tell the exclusive mode a holder has set from one
/// that a process left behind when it was killed (SIGKILL, a crash) before it could clear it.
enum TTYHolders {
    /// Whether the exclusive mode on the tty open at `descriptor` was left behind by a process
    /// that is gone: the tty is a pseudo-terminal's slave, this process holds it nowhere else,
    /// and no other process has it open, except the one that made the pty.
    ///
    /// Only a pty keeps the mode with nobody holding it (its slave lives as long as its master;
    /// a real tty is freed, mode and all, at its last close), so on any other tty the mode means
    /// a holder, seen or not. The maker of a pty (socat, gpsfake, a terminal) holds its master
    /// and often keeps the slave open too, so that the master sees no hang-up: that is not a
    /// reader. Whenever a process cannot be looked at (not root, `/proc` mounted with
    /// `hidepid`), it may be the holder, and the answer is no.
    static func modeIsLeftBehind(on descriptor: Int32, proc: String = "/proc") -> Bool {
        var tty = stat()
        guard fstat(descriptor, &tty) == 0, tty.st_mode & S_IFMT == S_IFCHR,
              let index = ptyIndex(tty.st_rdev) else { return false }
        // Another port of this process holding it (a second manager on the same device).
        if ExclusiveHolds.holds(device: tty.st_rdev) { return false }
        guard let processes = opendir(proc) else { return false }
        defer { closedir(processes) }
        let me = getpid()
        while let entry = readdir(processes) {
            let process = Self.name(entry)
            guard let pid = Int32(process) else { continue }
            let directory = proc + "/" + process + "/fd"
            guard let descriptors = opendir(directory) else {
                // ENOENT: it ended meanwhile. Anything else: it cannot be looked at.
                if errno == ENOENT { continue }
                return false
            }
            defer { closedir(descriptors) }
            var opensSlave = false
            var madeIt = false
            while let entry = readdir(descriptors) {
                let name = Self.name(entry)
                guard let number = Int32(name), !(pid == me && number == descriptor) else { continue }
                let link = directory + "/" + name
                // Only what lives in /dev is looked at: stat follows the link to the open file,
                // and one on a hung FUSE or NFS mount would block.
                guard let target = target(of: link), target.hasPrefix("/dev/") else { continue }
                if target.hasSuffix("ptmx") {
                    if masterIndex(proc + "/" + process + "/fdinfo/" + name) == index { madeIt = true }
                    continue
                }
                var file = stat()
                if stat(link, &file) == 0, file.st_mode & S_IFMT == S_IFCHR, file.st_rdev == tty.st_rdev {
                    opensSlave = true
                }
            }
            if opensSlave && !madeIt { return false }
        }
        return true
    }

    /// N of `/dev/pts/N` for a Unix 98 pty slave (majors 136 to 143, 256 minors each); nil for
    /// any other device. The corresponding C constant is `UNIX98_PTY_SLAVE_MAJOR`.
    static func ptyIndex(_ device: dev_t) -> UInt64? {
        let device = UInt64(device)
        // glibc's split of a device number; its `major` and `minor` macros are not imported.
        let major = (device >> 8) & 0xfff | (device >> 32) & ~0xfff
        let minor = device & 0xff | (device >> 12) & ~0xff
        guard (136...143).contains(major) else { return nil }
        return (major - 136) * 256 + minor
    }

    /// The slave index of a pty master, from the "tty-index:" line of its fdinfo.
    private static func masterIndex(_ fdinfo: String) -> UInt64? {
        let fd = open(fdinfo, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[0..<count], as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("tty-index:") }) else { return nil }
        return UInt64(line.dropFirst("tty-index:".count).trimmingPrefix { $0 == " " || $0 == "\t" })
    }

    private static func name(_ entry: UnsafeMutablePointer<dirent>) -> String {
        withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    private static func target(of link: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        let count = readlink(link, &buffer, buffer.count)
        return count > 0 ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
    }
}
