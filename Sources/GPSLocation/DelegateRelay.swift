import Synchronization

/// A thread-safe, weak home for a manager's delegate.
///
/// Managers deliver on their own threads while the delegate may be set from anywhere, and the
/// delegate (usually a `LocationService`) owns the manager: holding it weakly avoids a cycle.
public final class DelegateRelay: Sendable {
    private struct Box: Sendable {
        weak var value: (any LocationManagerDelegate)?
    }

    private let box = Mutex(Box())

    /// A relay with no delegate yet.
    public init() {}

    /// The delegate, if it is still alive; from any thread.
    public var delegate: (any LocationManagerDelegate)? {
        get { box.withLock { $0.value } }
        set { box.withLock { $0.value = newValue } }
    }
}
