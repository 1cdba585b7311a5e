/// What a call on a non-blocking descriptor did: something, or nothing yet.
///
/// "Nothing now" (`EAGAIN`) is the normal answer of a descriptor polled beside others, not a
/// failure, so it is a value the caller switches on; failures stay thrown as `SystemError`.
/// The model is SwiftNIO's `IOResult`.
@frozen
public enum IOResult<Value> {
    /// The call took or gave `Value` (a count of bytes, a connection).
    case processed(Value)
    /// The descriptor is not ready: poll it and try again.
    case wouldBlock
}

extension IOResult: Sendable where Value: Sendable {}
extension IOResult: Equatable where Value: Equatable {}

extension IOResult {
    /// The value, or nil when the call would have blocked.
    @inlinable
    public var value: Value? {
        switch self {
        case .processed(let value): value
        case .wouldBlock: nil
        }
    }
}
