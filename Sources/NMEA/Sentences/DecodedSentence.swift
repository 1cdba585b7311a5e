/// The sentence types gpsfix understands, for statistics and epoch bookkeeping.
public enum SentenceKind: Int, CaseIterable, Sendable, CustomStringConvertible {
    case gga, rmc, gsa, gsv, vtg, gll, zda, gns, gst, gbs, pgrme, pubx, unknown

    /// Reads the formatter (`GGA`) of a talker sentence or the address of a proprietary one.
    public init(_ s: Sentence) {
        let b = s.body
        if b[0] == 0x50 { // P: proprietary, the whole address names it
            if s.addressEnd == 5 && b[1] == 0x47 && b[2] == 0x52 && b[3] == 0x4D && b[4] == 0x45 { self = .pgrme; return }
            if s.addressEnd == 4 && b[1] == 0x55 && b[2] == 0x42 && b[3] == 0x58 { self = .pubx; return }
            // `PQ` is a talker ID too (QZSS, from some Quectel firmware): fall through to formatters.
            guard b[1] == 0x51 else { self = .unknown; return }
        }
        guard s.addressEnd == 5 else { self = .unknown; return }
        let code = UInt32(b[2]) << 16 | UInt32(b[3]) << 8 | UInt32(b[4])
        switch code {
        case 0x47_47_41: self = .gga
        case 0x52_4D_43: self = .rmc
        case 0x47_53_41: self = .gsa
        case 0x47_53_56: self = .gsv
        case 0x56_54_47: self = .vtg
        case 0x47_4C_4C: self = .gll
        case 0x5A_44_41: self = .zda
        case 0x47_4E_53: self = .gns
        case 0x47_53_54: self = .gst
        case 0x47_42_53: self = .gbs
        default: self = .unknown
        }
    }

    public var description: String {
        switch self {
        case .gga: "GGA"
        case .rmc: "RMC"
        case .gsa: "GSA"
        case .gsv: "GSV"
        case .vtg: "VTG"
        case .gll: "GLL"
        case .zda: "ZDA"
        case .gns: "GNS"
        case .gst: "GST"
        case .gbs: "GBS"
        case .pgrme: "PGRME"
        case .pubx: "PUBX"
        case .unknown: "unknown"
        }
    }
}

/// A sentence decoded into a value: what the epoch assembler consumes, and what tests compare.
public enum DecodedSentence: Equatable, Sendable {
    case gga(GGA)
    case rmc(RMC)
    case gsa(GSA)
    case gsv(GSV)
    case vtg(VTG)
    case gll(GLL)
    case zda(ZDA)
    case gns(GNS)
    case gst(GST)
    case gbs(GBS)
    case pgrme(PGRME)
    case pubx(PUBXPosition)

    /// Decodes a checked sentence; nil for a type gpsfix does not read (counted as unknown).
    public init?(_ s: Sentence, kind: SentenceKind) {
        switch kind {
        case .gga: self = .gga(GGA(s))
        case .rmc: self = .rmc(RMC(s))
        case .gsa: self = .gsa(GSA(s))
        case .gsv: self = .gsv(GSV(s))
        case .vtg: self = .vtg(VTG(s))
        case .gll: self = .gll(GLL(s))
        case .zda: self = .zda(ZDA(s))
        case .gns: self = .gns(GNS(s))
        case .gst: self = .gst(GST(s))
        case .gbs: self = .gbs(GBS(s))
        case .pgrme: self = .pgrme(PGRME(s))
        case .pubx:
            guard let p = PUBXPosition(s) else { return nil }
            self = .pubx(p)
        case .unknown: return nil
        }
    }

    /// The UTC time of day this sentence is stamped with, if its type carries one.
    public var time: TimeOfDay? {
        switch self {
        case .gga(let x): x.time
        case .rmc(let x): x.time
        case .gll(let x): x.time
        case .zda(let x): x.time
        case .gns(let x): x.time
        case .gst(let x): x.time
        case .gbs(let x): x.time
        case .pubx(let x): x.time
        case .gsa, .gsv, .vtg, .pgrme: nil
        }
    }

    /// Whether the type has a time field at all (even when this one left it empty).
    public var isTimed: Bool {
        switch self {
        case .gsa, .gsv, .vtg, .pgrme: false
        default: true
        }
    }
}
