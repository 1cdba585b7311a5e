/// A short list stored inline, so that decoding GSA and GSV allocates nothing.
public struct FixedList<Element: Sendable>: RandomAccessCollection, MutableCollection, Sendable {
    public static var capacity: Int { 16 }
    private var storage: InlineArray<16, Element?> = .init(repeating: nil)
    public private(set) var count = 0

    public init() {}

    /// Appends unless full; a receiver that sends more than 16 entries loses the excess.
    public mutating func append(_ element: Element) {
        guard count < Self.capacity else { return }
        storage[count] = element
        count += 1
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }
    public subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < count)
            return storage[position]!
        }
        set {
            precondition(position >= 0 && position < count)
            storage[position] = newValue
        }
    }

    public mutating func removeAll() { count = 0 }

    public var isFull: Bool { count == Self.capacity }
}

extension FixedList: Equatable where Element: Equatable {
    public static func == (a: FixedList, b: FixedList) -> Bool { a.elementsEqual(b) }
}
