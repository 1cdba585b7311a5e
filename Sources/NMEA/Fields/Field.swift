/// One field of a sentence, with conversions that work on the bytes directly.
///
/// Every conversion returns nil for an empty or malformed field: in NMEA an empty field means
/// "unknown", and unknown is never zero.
public struct Field {
    /// The field's text between its commas, borrowed from the sentence: valid only while the
    /// sentence is (see ``Sentence``).
    public let bytes: UnsafeBufferPointer<UInt8>

    /// Whether the field holds nothing: in NMEA, a value the sender does not know.
    @inline(__always) public var isEmpty: Bool { bytes.isEmpty }

    /// The single character of a one-letter field (`A`, `N`, `T` …).
    public var character: UInt8? { bytes.count >= 1 ? bytes[0] : nil }

    /// The field as a whole number: digits with an optional sign, or a decimal whose fraction is
    /// zero (`08.0` is 8); nil otherwise. No range is checked: see ``FieldCursor/integer(in:)``.
    @inline(__always)
    public var integer: Int? {
        guard let d = decimal, d.scale == 0 else {
            // Some receivers write integers with a fraction ("08.0"); accept whole values.
            if let d = decimal, d.mantissa % powersOfTen[d.scale] == 0 { return Int(d.mantissa / powersOfTen[d.scale]) }
            return nil
        }
        return Int(d.mantissa)
    }

    /// The field as a number (``decimal``'s ``ExactDecimal/value``): nil when empty or malformed.
    /// No range is checked: see ``FieldCursor/double(in:)``.
    @inline(__always)
    public var double: Double? { decimal?.value }

    /// A decimal number as mantissa and scale, exact: no binary rounding before the caller decides.
    ///
    /// Bounded so that no arithmetic on it can overflow: at most 18 significant digits (|mantissa|
    /// < 10^18) and at most `ExactDecimal.maximumScale` digits after the point (further ones are cut:
    /// no NMEA quantity is that fine). A longer integer part is no NMEA quantity either: nil.
    @inline(__always)
    public var decimal: ExactDecimal? {
        let n = bytes.count
        guard n > 0 else { return nil }
        var i = 0
        var negative = false
        if bytes[0] == ASCII.minus { negative = true; i = 1 } else if bytes[0] == ASCII.plus { i = 1 }
        // Sixteen characters or fewer cannot exceed the bounds, so the loop needs no counting;
        // nearly every field is this short, and this path is inlined into every decoder.
        guard n - i <= 16 else { return Self.longDecimal(bytes, from: i, negative: negative) }
        var mantissa: Int64 = 0
        var dot = -1
        while i < n {
            let d = bytes[i] &- ASCII.zero
            if d < 10 {
                mantissa = mantissa &* 10 &+ Int64(d)
            } else if bytes[i] == ASCII.dot && dot < 0 {
                dot = i
            } else {
                return nil
            }
            i += 1
        }
        // A sign or a point alone is no number.
        let first = negative || bytes[0] == ASCII.plus ? 1 : 0
        guard n - first - (dot < 0 ? 0 : 1) > 0 else { return nil }
        return ExactDecimal(mantissa: negative ? -mantissa : mantissa, scale: dot < 0 ? 0 : n - dot - 1)
    }

    /// A field longer than any real quantity's: read within the bounds, digit by digit.
    @inline(never)
    private static func longDecimal(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, negative: Bool) -> ExactDecimal? {
        var mantissa: Int64 = 0
        var scale = 0
        var digits = 0
        var seenDot = false
        var seenDigit = false
        for c in bytes[start...] {
            if c >= ASCII.zero && c <= ASCII.nine {
                seenDigit = true
                if seenDot && scale == ExactDecimal.maximumScale {
                    // Finer than anything a receiver measures: cut.
                } else if digits < 18 {
                    mantissa = mantissa &* 10 &+ Int64(c &- ASCII.zero)
                    // Leading zeros are not significant: 0.000…01 keeps its digits.
                    if mantissa != 0 { digits += 1 }
                    if seenDot { scale += 1 }
                } else if !seenDot {
                    return nil
                }
            } else if c == ASCII.dot && !seenDot {
                seenDot = true
            } else {
                return nil
            }
        }
        guard seenDigit else { return nil }
        return ExactDecimal(mantissa: negative ? -mantissa : mantissa, scale: scale)
    }

    /// `hhmmss[.s…]` as a time of day, to the millisecond (further digits are cut, not
    /// rounded: rounding 23:59:59.9996 up would cross midnight). Read by its exact shape: six
    /// digits, then optionally a point and at least one digit; anything else (`041.08`, a sign,
    /// `123456.`) is no time. Second 60 is accepted only where a leap second can be, 23:59:60
    /// UTC: `125960` is not 13:00:00.
    public var timeOfDay: TimeOfDay? {
        let n = bytes.count
        guard n == 6 || n >= 8, n == 6 || bytes[6] == ASCII.dot else { return nil }
        var whole = 0
        for i in 0..<6 {
            let d = bytes[i] &- ASCII.zero
            guard d < 10 else { return nil }
            whole = whole &* 10 &+ Int(d)
        }
        var millis = 0
        if n > 6 {
            for i in 7..<n {
                let d = bytes[i] &- ASCII.zero
                guard d < 10 else { return nil }
                // Milliseconds from the first three digits; the rest are checked and cut.
                if i < 10 { millis = millis &* 10 &+ Int(d) }
            }
            if n < 10 { millis *= n == 8 ? 100 : 10 }
        }
        let hh = whole / 10000, mm = whole / 100 % 100, ss = whole % 100
        guard hh < 24, mm < 60, ss < 60 || (ss == 60 && hh == 23 && mm == 59) else { return nil }
        return TimeOfDay(milliseconds: ((hh * 60 + mm) * 60 + ss) * 1000 + millis)
    }

    /// `ddmmyy` as a date, with the two-digit year pivot 80–99 → 19xx, 00–79 → 20xx.
    public var date: CalendarDate? {
        guard bytes.count == 6, let v = integer, v > 0 else { return nil }
        let dd = v / 10000, mm = v / 100 % 100, yy = v % 100
        return CalendarDate(year: CalendarDate.expandTwoDigitYear(yy), month: mm, day: dd)
    }

    /// `ddmm.mmmm` / `dddmm.mmmm` with its hemisphere field (`positive` or `negative`), as
    /// signed degrees; nil for minutes of 60 or more or a hemisphere that is neither.
    public func angle(hemisphere: Field, positive: UInt8, negative: UInt8) -> Double? {
        guard let d = decimal, d.mantissa >= 0, let h = hemisphere.character,
              h == positive || h == negative, hemisphere.bytes.count == 1 else { return nil }
        // Degrees are the digits above the minutes: split exactly on the decimal mantissa so that
        // minutes with 4, 5 or 6 decimals keep their full precision.
        // `scale` is at most `ExactDecimal.maximumScale`, so 100 · 10^scale fits.
        let hundred = powersOfTen[d.scale + 2]
        let degrees = Double(d.mantissa / hundred)
        let minutes = ExactDecimal(mantissa: d.mantissa % hundred, scale: d.scale).value
        guard minutes < 60 else { return nil }
        let value = degrees + minutes / 60
        return h == negative ? -value : value
    }
}

/// An exact decimal as read from a field: `value = mantissa / 10^scale`.
public struct ExactDecimal: Equatable, Sendable {
    /// The digits without their point, sign included; below 10^18 in magnitude when read from
    /// a field.
    public var mantissa: Int64
    /// How many of the digits come after the point, 0…``maximumScale``.
    public var scale: Int

    /// Digits after the point that a field may carry; `powersOfTen` reaches two further, so
    /// degrees-and-minutes can be split without overflow.
    public static let maximumScale = 16

    /// Correctly rounded for up to 15 significant digits: both operands are exact doubles.
    @inline(__always)
    public var value: Double { Double(mantissa) / Double(powersOfTen[scale]) }
}

let powersOfTen: [Int64] = [
    1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
    10_000_000_000, 100_000_000_000, 1_000_000_000_000, 10_000_000_000_000,
    100_000_000_000_000, 1_000_000_000_000_000, 10_000_000_000_000_000,
    100_000_000_000_000_000, 1_000_000_000_000_000_000,
]
