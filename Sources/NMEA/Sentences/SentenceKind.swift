/// A sentence type gpsfix reads, by its row in `SentenceTable.rows`; or `unknown`.
public struct SentenceKind: Hashable, Sendable, CustomStringConvertible {
    /// The row's index; `SentenceTable.rows.count` for `unknown`.
    public let rawValue: Int

    /// A sentence of a type gpsfix does not read, counted as such (``SentenceCounts/unknown``).
    public static let unknown = SentenceKind(rawValue: SentenceTable.rows.count)
    /// Every kind, the unknown last: for counting by kind.
    public static var count: Int { SentenceTable.rows.count + 1 }

    init(rawValue: Int) { self.rawValue = rawValue }

    /// The kind of a decoded type (`SentenceKind(GGA.self)`).
    public init<T: SentenceType>(_ type: T.Type) {
        self.init(rawValue: SentenceTable.rows.firstIndex { ObjectIdentifier($0.type) == ObjectIdentifier(type) }
                  ?? SentenceTable.rows.count)
    }

    /// Reads the formatter (`GGA`) of a talker sentence or the address of a proprietary one.
    public init(_ s: Sentence) {
        self.init(rawValue: SentenceTable.index(of: s))
    }

    public var description: String {
        rawValue < SentenceTable.rows.count ? SentenceTable.rows[rawValue].name : "unknown"
    }
}
