import Glibc

/// Runs `body` on a new detached thread of its own, named `name` so that `top -H`, `ps -L`
/// and gdb show what it is ("gpsfix-serial").
///
/// The kernel keeps 15 bytes of a thread's name: a longer `name` is cut there, at a
/// character's boundary. A source blocks in `read`, `poll` or a paced sleep for its whole
/// life; that belongs on a dedicated thread, not on Dispatch's shared pool or the
/// cooperative executor.
public func spawnThread(name: String, _ body: @escaping @Sendable () -> Void) {
    final class Box: @unchecked Sendable {
        // Immutable after init and handed to exactly one thread.
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
    let box = Unmanaged.passRetained(Box(name: ThreadName.kernelName(name), body: body))
    var thread = pthread_t()
    let result = pthread_create(&thread, nil, { raw in
        let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
        // Named from inside: the name is there before the body runs, and no other thread
        // races to name it.
        ThreadName.setCurrent(box.name)
        box.body()
        return nil
    }, box.toOpaque())
    precondition(result == 0, "pthread_create failed: \(result)")
    pthread_detach(thread)
}

/// Thread names as the kernel keeps them.
public enum ThreadName {
    /// The bytes a name may have (`TASK_COMM_LEN` less its terminating zero).
    public static let limit = 15

    /// `name` cut to `limit` bytes at a character's boundary.
    public static func kernelName(_ name: String) -> String {
        var kept = ""
        var bytes = 0
        for character in name {
            let size = character.utf8.count
            guard bytes + size <= limit else { break }
            kept.append(character)
            bytes += size
        }
        return kept
    }

    /// Where the kernel keeps the calling thread's name. (The C library's
    /// `pthread_setname_np` is not offered to Swift here: it needs `_GNU_SOURCE`.)
    static let path = "/proc/thread-self/comm"

    /// Names the calling thread; a failure (no /proc) leaves the name it had.
    static func setCurrent(_ name: String) {
        guard let fd = try? FileDescriptor.open(path, .writeOnly) else { return }
        defer { fd.close() }
        try? fd.writeAll(kernelName(name).utf8)
    }

    /// The calling thread's name, as `top -H` shows it; empty when it cannot be read.
    public static var current: String {
        guard let fd = try? FileDescriptor.open(path, .readOnly) else { return "" }
        defer { fd.close() }
        var buffer = [UInt8](repeating: 0, count: limit + 2)
        let result = buffer.withUnsafeMutableBytes { raw in Result { () throws(SystemError) in try fd.read(into: raw) } }
        guard case .success(.processed(let count)) = result else { return "" }
        var name = buffer[..<count]
        if name.last == UInt8(ascii: "\n") { name = name.dropLast() }
        return String(decoding: name, as: UTF8.self)
    }
}
