/// Finds where a capture's `#` header ends in a stream that arrives in pieces, by the rule
/// `CaptureHeader(parsing:)` applies to a whole file: every line that begins with `#`, from
/// the first byte on, through its `\n`, is header; the body begins at the first line that
/// does not. A piece may end anywhere, inside a header line or right after one.
///
/// A replay needs only where the body begins, not the fields: it keeps no more than the
/// piece in hand.
public struct CaptureHeaderSkipper: Sendable {
    private enum State: Sendable {
        /// At the start of a line that may still be header (the first line is).
        case lineStart
        /// Inside a `#` line, until its `\n`.
        case headerLine
        /// Past the header: everything from here on is the receiver's.
        case body
    }

    private var state = State.lineStart

    /// A skipper at the start of a stream, where the first line may be header.
    public init() {}

    /// Whether the header is behind: every byte from now on is body.
    public var isInBody: Bool { state == .body }

    /// Where the body begins in `piece`, the next piece of the stream: `piece.count` when all
    /// of it is header.
    public mutating func bodyStart(in piece: UnsafeRawBufferPointer) -> Int {
        var i = 0
        while i < piece.count {
            switch state {
            case .body:
                return i
            case .lineStart:
                guard piece[i] == UInt8(ascii: "#") else {
                    state = .body
                    return i
                }
                state = .headerLine
                i += 1
            case .headerLine:
                while i < piece.count, piece[i] != UInt8(ascii: "\n") { i += 1 }
                if i < piece.count {
                    state = .lineStart
                    i += 1
                }
            }
        }
        return piece.count
    }
}
