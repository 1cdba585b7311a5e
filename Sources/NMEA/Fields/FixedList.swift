/// A short list stored inline, so that decoding GSA and GSV allocates nothing.
///
/// The capacity is part of the type, so a GSV's four satellites do not pay for a GSA's
/// sixteen: these values are copied per sentence and their size is the engine's speed.
public struct FixedList<let capacity: Int, Element: Sendable>: RandomAccessCollection, Sendable {
    private var storage: InlineArray<capacity, Element?> = .init(repeating: nil)
    /// How many elements the list holds, 0…`capacity`.
    public private(set) var count = 0

    /// An empty list.
    public init() {}

    /// Appends unless full: a receiver that sends more than `capacity` entries loses the excess.
    public mutating func append(_ element: Element) {
        guard count < capacity else { return }
        storage[count] = element
        count += 1
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> Element {
        precondition(position >= 0 && position < count)
        return storage[position]!
    }
}

extension FixedList: Equatable where Element: Equatable {
    public static func == (a: FixedList, b: FixedList) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count where a[i] != b[i] { return false }
        return true
    }
}
