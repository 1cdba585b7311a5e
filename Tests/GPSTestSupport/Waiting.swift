// Waiting helpers shared by the test targets that exercise threads and streams: every
// wait has a deadline, so code under test that never delivers fails a test instead of
// hanging the run (the seed's `wait(for: [expectation], timeout: 1)`, for Swift Testing).
import Dispatch
import Synchronization

/// A value that arrives once, from any thread, and is awaited with a deadline.
public final class Eventually<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiter: CheckedContinuation<Value?, Never>?
        var fulfillments = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// Records `value`; only the first one counts, later ones are only counted.
    public func fulfill(_ value: Value) {
        let waiter = state.withLock { s -> CheckedContinuation<Value?, Never>? in
            s.fulfillments += 1
            guard s.fulfillments == 1 else { return nil }
            s.value = value
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume(returning: value)
    }

    /// How many times `fulfill` was called (a completion must be called once).
    public var fulfillments: Int { state.withLock { $0.fulfillments } }

    /// The value, or nil when it did not come within `limit`. Call once.
    public func value(within limit: Duration) async -> Value? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
            let ready = state.withLock { s -> Value? in
                if let value = s.value { return value }
                s.waiter = continuation
                return nil
            }
            if let ready {
                continuation.resume(returning: ready)
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + limit.seconds) { [self] in
                let waiter = state.withLock { s -> CheckedContinuation<Value?, Never>? in
                    defer { s.waiter = nil }
                    return s.waiter
                }
                waiter?.resume(returning: nil)
            }
        }
    }
}

/// Runs `operation` in a task of its own and waits at most `limit` for it: nil when it did not
/// finish in time (the task is then cancelled and abandoned, so a hang cannot block the suite).
public func withDeadline<T: Sendable>(_ limit: Duration, _ operation: @escaping @Sendable () async -> T) async -> T? {
    let result = Eventually<T>()
    let task = Task { result.fulfill(await operation()) }
    let value = await result.value(within: limit)
    if value == nil { task.cancel() }
    return value
}

/// Everything a stream yields until it finishes; `finished` is false when it did not finish
/// within `limit` (then `elements` holds what came so far).
public func collect<Element: Sendable>(_ stream: AsyncStream<Element>, within limit: Duration = .seconds(10)) async -> (elements: [Element], finished: Bool) {
    let seen = Mutex<[Element]>([])
    let done = await withDeadline(limit) {
        for await element in stream { seen.withLock { $0.append(element) } }
        return true
    }
    return (seen.withLock { $0 }, done ?? false)
}

/// Polls `condition` until it holds or `limit` passes; returns whether it held.
public func waitUntil(_ limit: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + limit
    while !condition() {
        guard clock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}

extension Duration {
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
