/// NMEA 0183 framing for hand-written test sentences, computed independently of the engine.
public enum NMEASentence {
    /// The checksum of a sentence body (the text between `$` and `*`): the XOR of its bytes,
    /// as two uppercase hex digits.
    public static func checksum(_ body: String) -> String {
        let sum = body.utf8.reduce(UInt8(0), ^)
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(sum >> 4)], digits[Int(sum & 0xF)]])
    }

    /// `$body*hh`, without a line ending.
    public static func framed(_ body: String) -> String { "$\(body)*\(checksum(body))" }
}
