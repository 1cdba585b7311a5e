import GPSSystem
import GPSLocation

/// Who else has a tty open, from `/proc`: a port another process reads is refused (two readers
/// would each get part of the sentences, and gpsd 3.22 sets no exclusive mode to stop the
/// second), and the exclusive mode a holder set is told from one that a process left behind
/// when it was killed (SIGKILL, a crash) before it could clear it.
enum TTYHolders {
    /// What a look through `/proc` found for one tty.
    struct Scan: Equatable {
        /// The other processes that have the tty open, in the order `/proc` lists them. Not
        /// this process (its own ports are in `ExclusiveHolds`), and not a pty's maker.
        var readers: [PortHolder] = []
        /// False when some process could not be looked at (not root, `/proc` mounted with
        /// `hidepid`): it may hold the tty too.
        var complete = true
    }

    /// Bounds the walk: a process with more descriptors than this is judged on its first ones.
    /// (A reader of a receiver holds a handful; the kernel's default limit is 1,024.)
    static let descriptorsLookedAt = 65_536

    /// The processes other than this one that have the tty `device` (a device number) open.
    ///
    /// The maker of a pty (socat, gpsfake, a terminal, a test's `openpty`) holds its master
    /// and often keeps the slave open too, so that the master sees no hang-up when a reader
    /// lets go: that process is not a reader. A process holding only the master is not one
    /// either (the master is another device, `/dev/ptmx`). Only links into `/dev` are looked
    /// at: `stat` follows a link to the open file, and one on a hung FUSE or NFS mount would
    /// block.
    static func scan(device: UInt64, proc: String = "/proc") -> Scan {
        var result = Scan()
        guard case .success(let processes) = FileSystem.entries(of: proc) else {
            result.complete = false
            return result
        }
        let me = FileSystem.processID
        let index = ptyIndex(device)
        for process in processes {
            guard let pid = Int32(process), pid != me else { continue }
            let directory = proc + "/" + process + "/fd"
            let descriptors: [String]
            switch FileSystem.entries(of: directory, limit: descriptorsLookedAt) {
            case .success(let names):
                descriptors = names
            case .failure(let error):
                // ENOENT: it ended meanwhile. Anything else: it cannot be looked at.
                if error != .noSuchFile { result.complete = false }
                continue
            }
            var opensTTY = false
            var madeIt = false
            for name in descriptors {
                guard Int32(name) != nil else { continue }
                let link = directory + "/" + name
                guard let target = FileSystem.linkTarget(link), target.hasPrefix("/dev/") else { continue }
                if target.hasSuffix("ptmx") {
                    if let index, masterIndex(proc + "/" + process + "/fdinfo/" + name) == index { madeIt = true }
                    continue
                }
                if let file = try? FileStatus(path: link), file.kind == .characterDevice, file.representedDevice == device {
                    opensTTY = true
                }
            }
            if opensTTY && !madeIt {
                result.readers.append(PortHolder(pid: pid, name: command(of: process, in: proc) ?? "?"))
            }
        }
        return result
    }

    /// Whether the exclusive mode found on `device` may be taken over: it was left behind by
    /// a process that is gone. Only a pty keeps the mode with nobody holding it (its slave
    /// lives as long as its master; a real tty is freed, mode and all, at its last close), so
    /// on any other tty the mode means a holder, seen or not; and whenever a process could
    /// not be looked at, it may be the holder.
    static func modeIsLeftBehind(on device: UInt64, after scan: Scan) -> Bool {
        ptyIndex(device) != nil && scan.complete && scan.readers.isEmpty && !ExclusiveHolds.holds(device: device)
    }

    /// This process, as a holder: a second port of it on the same device.
    static var thisProcess: PortHolder {
        PortHolder(pid: FileSystem.processID, name: command(of: "self", in: "/proc") ?? "gpsfix")
    }

    /// N of `/dev/pts/N` for a Unix 98 pty slave (majors 136 to 143, 256 minors each); nil for
    /// any other device. The corresponding C constant is `UNIX98_PTY_SLAVE_MAJOR`.
    static func ptyIndex(_ device: UInt64) -> UInt64? {
        // glibc's split of a device number; its `major` and `minor` macros are not imported.
        let major = (device >> 8) & 0xfff | (device >> 32) & ~0xfff
        let minor = device & 0xff | (device >> 12) & ~0xff
        guard (136...143).contains(major) else { return nil }
        return (major - 136) * 256 + minor
    }

    /// The name the kernel keeps for a process (`comm`, at most 15 bytes and a newline).
    private static func command(of process: String, in proc: String) -> String? {
        guard let text = firstBytes(of: proc + "/" + process + "/comm", count: 64) else { return nil }
        let name = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        return name.isEmpty ? nil : name
    }

    /// The slave index of a pty master, from the "tty-index:" line of its fdinfo.
    private static func masterIndex(_ fdinfo: String) -> UInt64? {
        guard let text = firstBytes(of: fdinfo, count: 1024) else { return nil }
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("tty-index:") }) else { return nil }
        return UInt64(line.dropFirst("tty-index:".count).trimmingPrefix { $0 == " " || $0 == "\t" })
    }

    /// At most `count` bytes from the start of a small file in `/proc`.
    private static func firstBytes(of path: String, count: Int) -> String? {
        FileSystem.firstBytes(of: path, limit: count).map { String(decoding: $0, as: UTF8.self) }
    }
}
