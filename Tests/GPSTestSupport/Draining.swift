import Synchronization

/// What a throwing stream gave until it ended: its elements, whether it ended within the
/// limit, and what it threw, if it did.
public struct Drained<Element: Sendable, Failure: Error>: Sendable {
    public let elements: [Element]
    public let finished: Bool
    public let error: Failure?
}

/// Everything `sequence` yields until it ends (returns nil or throws), iterated in a task of
/// its own; `finished` is false when it did not end within `limit` (the task is then
/// cancelled, and `elements` holds what came so far).
public func drain<S: AsyncSequence & Sendable>(_ sequence: S, within limit: Duration = .seconds(10)) async
    -> Drained<S.Element, S.Failure> where S.Element: Sendable, S.Failure: Sendable {
    let seen = Mutex<[S.Element]>([])
    let thrown = Mutex<S.Failure?>(nil)
    let done = await withDeadline(limit) {
        do throws(S.Failure) {
            var iterator = sequence.makeAsyncIterator()
            while let element = try await iterator.next(isolation: nil) { seen.withLock { $0.append(element) } }
        } catch {
            thrown.withLock { $0 = error }
        }
        return true
    }
    return Drained(elements: seen.withLock { $0 }, finished: done ?? false, error: thrown.withLock { $0 })
}
