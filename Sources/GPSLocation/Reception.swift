/// What a source has received since it was opened (or opened again, after an unplug), as
/// facts: enough to tell a port that sends nothing from one that sends bytes that are not NMEA
/// (a wrong baud rate, a binary protocol) from a receiver that speaks NMEA but has no fix, each
/// of which needs other advice.
public struct Reception: Hashable, Codable, Sendable {
    /// What was read, for people: "/dev/ttyUSB0".
    public var source: String
    /// Bytes read.
    public var bytes: Int
    /// NMEA sentences among them that the engine accepted (their checksum matched, or they had
    /// none where none is needed).
    public var sentences: Int
    /// The line rate the bytes were read at, in bits per second, once settled (named, or found
    /// by listening); nil while it is still being hunted for, and for a port without one (USB
    /// CDC-ACM).
    public var baud: Int?

    /// Counts as stated, nothing received by default: a source starts one when it opens, and
    /// tests state what a timeout saw.
    public init(source: String, bytes: Int = 0, sentences: Int = 0, baud: Int? = nil) {
        self.source = source
        self.bytes = bytes
        self.sentences = sentences
        self.baud = baud
    }
}
