/// A sentence type the engine reads: its address, its decoder, and (through `EpochInput`) what
/// it adds to an epoch. A new sentence is one file with such a type, and one row below.
public protocol SentenceType: Sendable {
    /// The formatter of a talker sentence (`GGA`, read from any talker), or the whole address
    /// of a proprietary one (`PGRME`).
    static var address: StaticString { get }
    /// Decodes a checked sentence of this address; nil for one that gpsfix does not read under
    /// it (PUBX other than 00). A field that is empty, malformed or outside ``Bounds`` is nil in
    /// the value, never a failure.
    init?(_ sentence: Sentence)
    /// Fields that held a value outside its physical range (`Bounds`), read as unknown.
    var outOfRange: Int { get }
}

/// Every sentence type gpsfix reads: the one place a new one is registered.
public enum SentenceTable {
    static let rows: [Row] = [
        .of(GGA.self), .of(RMC.self), .of(GSA.self), .of(GSV.self), .of(VTG.self), .of(GLL.self),
        .of(ZDA.self), .of(GNS.self), .of(GST.self), .of(GBS.self), .of(PGRME.self), .of(PUBXPosition.self),
        .of(PGRMZ.self),
        // The instruments beside the receiver (`Instruments.swift`).
        .of(HDT.self), .of(THS.self), .of(HDG.self), .of(HDM.self), .of(ROT.self), .of(XDR.self),
        .of(DBT.self), .of(DPT.self), .of(MTW.self), .of(MWV.self), .of(MWD.self),
        .of(DTM.self), .of(GRS.self), .of(TXT.self),
    ]

    /// Decodes a checked sentence into its type; nil for one gpsfix does not read.
    public static func decode(_ s: Sentence) -> (any SentenceType)? {
        let i = index(of: s)
        return i < rows.count ? rows[i].decode(s) : nil
    }

    /// The rows' addresses as numbers, in row order: what `index(of:)` scans for every
    /// sentence, kept apart from the rows so the scan touches no reference-counted value.
    struct Addresses: Sendable {
        /// Formatters hashed into 64 slots (open addressing): slot → (formatter, row + 1),
        /// 0 where empty. A lookup is a multiply, a shift and a compare or two.
        let slots: [UInt64]
        /// Up to eight bytes of a proprietary address, with its length; 0 for a formatter row.
        let proprietary: [UInt64]
        let lengths: [Int]
        let count: Int

        init(_ rows: [Row]) {
            precondition(rows.count < 64, "the formatter hash holds 64 slots")
            var slots = [UInt64](repeating: 0, count: 64)
            for (i, row) in rows.enumerated() where row.formatter != 0 {
                var slot = Self.slot(row.formatter)
                while slots[slot] != 0 { slot = (slot + 1) & 63 }
                slots[slot] = UInt64(row.formatter) << 32 | UInt64(i + 1)
            }
            self.slots = slots
            proprietary = rows.map { $0.formatter == 0 ? SentenceTable.code($0.address[...]) : 0 }
            lengths = rows.map { $0.formatter == 0 ? $0.address.count : 0 }
            count = rows.count
        }

        @inline(__always)
        static func slot(_ formatter: UInt32) -> Int { Int(truncatingIfNeeded: (formatter &* 0x9E37_79B1) >> 26) }

        @inline(__always)
        func row(formatter: UInt32) -> Int {
            var slot = Self.slot(formatter)
            while true {
                let entry = slots[slot]
                if entry == 0 { return count }
                if UInt32(truncatingIfNeeded: entry >> 32) == formatter { return Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1 }
                slot = (slot + 1) & 63
            }
        }
    }

    static let addresses = Addresses(rows)

    struct Row: Sendable {
        /// Decodes and hands the value to the assembler (`EpochInput.feed`), the rest of the
        /// pipeline specialised for the type: one indirect call per sentence.
        let type: any EpochInput.Type
        let name: String
        let address: [UInt8]
        /// Three bytes of a formatter as one number, or 0 for a proprietary address.
        let formatter: UInt32
        let decode: @Sendable (Sentence) -> (any SentenceType)?

        static func of<T: EpochInput>(_ type: T.Type) -> Row {
            let address = Array(UnsafeBufferPointer(start: T.address.utf8Start, count: T.address.utf8CodeUnitCount))
            let formatter = address.count == 3 ? code(address[0], address[1], address[2]) : 0
            precondition(address.count <= 8, "a proprietary address longer than 8 bytes")
            return Row(
                type: type, name: String(decoding: address, as: UTF8.self), address: address, formatter: formatter,
                decode: { T($0) })
        }
    }

    @inline(__always)
    static func code(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt32 {
        UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c)
    }

    /// Up to eight bytes as one number, first byte highest.
    static func code(_ bytes: some Collection<UInt8>) -> UInt64 {
        bytes.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The row of a sentence's address, or the rows' count for one gpsfix does not read.
    static func index(of s: Sentence, in a: Addresses = addresses) -> Int {
        let b = s.body
        let n = s.addressEnd
        let count = a.count
        if b[0] == 0x50 { // P: proprietary, the whole address names it
            if n <= 8 {
                var address: UInt64 = 0
                for i in 0..<n { address = address << 8 | UInt64(b[i]) }
                for i in 0..<count where a.lengths[i] == n && a.proprietary[i] == address { return i }
            }
            // `PQ` is a talker ID too (QZSS, from some Quectel firmware): read its formatter.
            guard n > 1, b[1] == 0x51 else { return count }
        }
        guard n == 5 else { return count }
        return a.row(formatter: code(b[2], b[3], b[4]))
    }
}
