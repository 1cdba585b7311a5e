/// Text that came from the network (a topic level naming a vehicle, a client's device
/// path, a broker's reason) made safe to show a person: in a terminal or a journal a
/// control character can move the cursor or forge a line, and a bidi override or a
/// zero-width character can make one name look like another. Such characters are shown
/// as `\u{XXXX}` (so two names that differ still look different), and the whole is cut at
/// `limit` characters with `…`, so a peer does not decide how long a line is either.
public enum PeerText {
    /// The longest peer text shown whole.
    public static let defaultLimit = 64

    /// `text` as it may be shown: control, bidi and zero-width characters escaped as
    /// `\u{XXXX}`, a backslash doubled (so an escape cannot be forged), and cut after `limit`
    /// characters (at least 1) with `…`. Call it on every peer-given label before it reaches a
    /// log line, a status line or a terminal.
    public static func display(_ text: some StringProtocol, limit: Int = defaultLimit) -> String {
        var out = ""
        var shown = 0
        for scalar in text.unicodeScalars {
            if shown >= max(limit, 1) { out += "…"; break }
            if needsEscape(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else if scalar == "\\" {
                out += "\\\\"
            } else {
                out.unicodeScalars.append(scalar)
            }
            shown += 1
        }
        return out
    }

    /// True if `text` would be shown changed: a peer's label holding anything escaped.
    public static func isPlain(_ text: some StringProtocol, limit: Int = defaultLimit) -> Bool {
        display(text, limit: limit) == String(text)
    }

    static func needsEscape(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x00...0x1F, 0x7F...0x9F: return true          // C0, DEL, C1
        case 0x200B...0x200F: return true                   // zero-width space/joiners, LRM, RLM
        case 0x202A...0x202E: return true                   // bidi embeddings and overrides
        case 0x2060...0x2064, 0x2066...0x206F: return true  // word joiner, invisible operators, bidi isolates
        case 0x061C, 0xFEFF, 0x180E, 0x00AD: return true    // Arabic letter mark, BOM, Mongolian separator, soft hyphen
        case 0xFFF9...0xFFFB: return true                   // interlinear annotation controls
        case 0xE0000...0xE007F: return true                 // tag characters
        default: return false
        }
    }
}
