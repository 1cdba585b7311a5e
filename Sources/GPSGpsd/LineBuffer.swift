/// Bytes from a socket cut into lines, holding at most `maximumLine` bytes of one: a peer that
/// never ends a line costs that much memory and no more (the line is dropped whole, and counted).
struct LineBuffer {
    let maximumLine: Int
    private var pending: [UInt8] = []
    /// In a line already too long: everything up to its end is dropped.
    private var discarding = false
    /// Lines dropped for their length.
    private(set) var overlong = 0

    init(maximumLine: Int) {
        self.maximumLine = maximumLine
        pending.reserveCapacity(min(maximumLine, 16_384))
    }

    /// Calls `line` with each whole line in `bytes` (without CR LF or LF), keeping the rest.
    mutating func append(_ bytes: UnsafeRawBufferPointer, line: (ArraySlice<UInt8>) -> Void) {
        var start = 0
        while start < bytes.count {
            guard let end = bytes[start...].firstIndex(of: 0x0A) else {
                keep(bytes[start...])
                return
            }
            keep(bytes[start..<end])
            if !discarding {
                var whole = pending[...]
                if whole.last == 0x0D { whole = whole.dropLast() }
                if !whole.isEmpty { line(whole) }
            }
            pending.removeAll(keepingCapacity: true)
            discarding = false
            start = end + 1
        }
    }

    private mutating func keep(_ part: Slice<UnsafeRawBufferPointer>) {
        guard !discarding else { return }
        if pending.count + part.count > maximumLine {
            overlong += 1
            discarding = true
            pending.removeAll(keepingCapacity: true)
            return
        }
        pending.append(contentsOf: part)
    }

    /// Forgets a partial line: a new connection starts afresh.
    mutating func reset() {
        pending.removeAll(keepingCapacity: true)
        discarding = false
    }
}
