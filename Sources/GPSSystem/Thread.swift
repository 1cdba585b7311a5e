import Glibc

/// Runs `body` on a new detached thread of its own.
///
/// A source blocks in `read`, `poll` or a paced sleep for its whole life; that belongs on a
/// dedicated thread, not on Dispatch's shared pool or the cooperative executor.
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
    let box = Unmanaged.passRetained(Box(name: name, body: body))
    var thread = pthread_t()
    let result = pthread_create(&thread, nil, { raw in
        let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
        box.body()
        return nil
    }, box.toOpaque())
    precondition(result == 0, "pthread_create failed: \(result)")
    pthread_detach(thread)
}
