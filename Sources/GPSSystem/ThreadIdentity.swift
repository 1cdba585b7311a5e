import Glibc

/// Which thread is running: what a component that delivers on a thread of its own compares
/// to learn that a call (a stop, an end) comes from inside its own delivery, where waiting
/// for that thread would wait for itself.
public struct ThreadIdentity: Equatable, @unchecked Sendable {
    // A pthread_t is an opaque number the C library hands out; it is only compared here.
    private let thread: pthread_t

    /// The calling thread.
    public static var current: ThreadIdentity { ThreadIdentity(thread: pthread_self()) }

    public static func == (a: ThreadIdentity, b: ThreadIdentity) -> Bool { pthread_equal(a.thread, b.thread) != 0 }
}
