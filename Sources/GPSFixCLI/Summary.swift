import NMEA
import GPSLocation

/// The closing line of a replay: what the engine read and what it made of it.
enum Summary {
    static func line(_ s: Statistics, source: String) -> String {
        var parts = ["\(s.sentences.decoded) sentences decoded", "\(s.epochs.fixes) epochs"]
        if s.sentences.unknown > 0 { parts.append("\(s.sentences.unknown) of unknown types") }
        if s.sentences.badChecksum > 0 { parts.append("\(s.sentences.badChecksum) with bad checksums") }
        if s.sentences.malformed > 0 { parts.append("\(s.sentences.malformed) malformed") }
        if s.sentences.outOfRange > 0 { parts.append("\(s.sentences.outOfRange) values out of range") }
        if s.epochs.satellitesLeftOut > 0 {
            parts.append("\(s.epochs.satellitesLeftOut) satellites left out of sky views (over \(Bounds.satellites.upperBound) in one)")
        }
        if s.framing.truncated > 0 { parts.append("\(s.framing.truncated) truncated") }
        if s.framing.overlong > 0 { parts.append("\(s.framing.overlong) overlong") }
        if s.framing.junkBytes > 0 { parts.append("\(s.framing.junkBytes) junk bytes skipped") }
        return "\(source): " + parts.joined(separator: ", ")
    }
}
