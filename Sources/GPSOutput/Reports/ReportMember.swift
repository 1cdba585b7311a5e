/// One measurement a gpsd report carries: its member's name, where its value is kept, how it
/// is printed and the range every reader holds it to.
///
/// The rows of `GPSDReportTable` are the one place a member is described. The writer
/// (`GPSDJSON`, through code generated from the rows: a key path read per member per epoch
/// costs more than the rest of the report), the reader (`GpsdJSONReports`), the fuzzer's
/// read-back and the README's table of members all follow from them.
public struct ReportMember<Record>: Sendable {
    /// gpsd's name for it (`altHAE`).
    public let name: String
    /// Where the value is kept. Read-only where the value is inside an optional
    /// (`coordinate?.latitude`): a reader makes that whole (`writableKeyPath` is nil).
    public let keyPath: any KeyPath<Record, Double?> & Sendable
    /// The same path as Swift source (`ellipsoidalAltitude`, `coordinate?.latitude`), for the
    /// generated writer; a test holds it to `keyPath`.
    public let path: String
    /// Digits after the point, as gpsd's `%.Nf` prints it.
    public let decimals: Int
    /// What a reader accepts: the range the engine holds the value to (`Bounds`).
    public let range: ValueRange
    /// Degrees of a direction: one that rounds to 360 is printed 0
    /// (`ByteWriter.append(bearing:decimals:)`).
    public let isBearing: Bool
    /// The unit, as the README shows it ("m", "m/s", "°"); empty for a ratio.
    public let unit: String
    /// What it is, as the README shows it.
    public let meaning: String
    /// The name of the member this one repeats under an older name (gpsd's `alt` is
    /// `altMSL`): a reader takes it only when that member is absent.
    public let repeats: String?
    /// A zero means the receiver did not say (gpsd's `ss` of a satellite not tracked).
    public let zeroIsUnknown: Bool

    /// A row: `decimals` as gpsd prints it, `range` from `Bounds`.
    public init(_ name: String, _ keyPath: any KeyPath<Record, Double?> & Sendable, path: String, decimals: Int,
                range: ValueRange, bearing: Bool = false, unit: String, _ meaning: String, repeats: String? = nil,
                zeroIsUnknown: Bool = false) {
        self.name = name
        self.keyPath = keyPath
        self.path = path
        self.decimals = decimals
        self.range = range
        isBearing = bearing
        self.unit = unit
        self.meaning = meaning
        self.repeats = repeats
        self.zeroIsUnknown = zeroIsUnknown
    }

    /// Where a reader puts the value it read; nil where the value is inside an optional.
    public var writableKeyPath: WritableKeyPath<Record, Double?>? { keyPath as? WritableKeyPath<Record, Double?> }

    /// `value` as a reader keeps it: finite, within the range, and not a zero that means unknown.
    public func accepts(_ value: Double) -> Bool {
        value.isFinite && range.contains(value) && !(zeroIsUnknown && value == 0)
    }
}

/// The values a member may hold, from `lower` to `upper`, the upper end in or out: `Bounds`
/// has both kinds (a latitude to 90 inclusive, a course below 360).
public struct ValueRange: Equatable, Sendable, CustomStringConvertible {
    /// The least value in the range.
    public let lower: Double
    /// The greatest value, in the range or just past it (`includesUpper`).
    public let upper: Double
    /// Whether `upper` itself is in the range.
    public let includesUpper: Bool

    /// A range with both ends in it (`Bounds.latitude`).
    public init(_ range: ClosedRange<Double>) {
        lower = range.lowerBound
        upper = range.upperBound
        includesUpper = true
    }

    /// A range that stops short of its upper end (`Bounds.course`: below 360).
    public init(_ range: Range<Double>) {
        lower = range.lowerBound
        upper = range.upperBound
        includesUpper = false
    }

    /// Whether `value` lies in the range (NaN never does).
    public func contains(_ value: Double) -> Bool {
        value >= lower && (includesUpper ? value <= upper : value < upper)
    }

    /// As the README says it: `−90 to 90`, `0 to below 360`, `0 to 10 000 000`.
    public var description: String {
        "\(Self.text(lower)) to \(includesUpper ? "" : "below ")\(Self.text(upper))"
    }

    /// A bound as a person reads it: a minus sign, thin groups of three digits, no `.0`.
    private static func text(_ value: Double) -> String {
        let whole = value.rounded() == value && value.magnitude < 1e15
        var digits = whole ? String(Int(value.magnitude)) : String(value.magnitude)
        if whole && digits.count > 4 {
            var grouped = ""
            for (i, c) in digits.enumerated() {
                if i > 0 && (digits.count - i) % 3 == 0 { grouped += " " }
                grouped.append(c)
            }
            digits = grouped
        }
        return (value < 0 ? "−" : "") + digits
    }
}
