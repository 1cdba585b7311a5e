import Foundation
import GPSOutput
import Testing

private func written(_ write: (inout ByteWriter) -> Void) -> String {
    var w = ByteWriter()
    write(&w)
    return String(decoding: w.bytes, as: UTF8.self)
}

@Suite("ByteWriter")
struct ByteWriterTests {
    @Test("append(_:decimals:) rounds half away from zero to exactly N decimals", arguments: [
        (1.23456, 3, "1.235"),
        (1.23449, 3, "1.234"),
        (2.5, 0, "3"),
        (-2.5, 0, "-3"),
        (0.4, 0, "0"),
        (0.125, 2, "0.13"),
        (-0.125, 2, "-0.13"),
        (0.9996, 3, "1.000"),
        (-0.9996, 3, "-1.000"),
        (99.99999999, 3, "100.000"),
        (0.0, 2, "0.00"),
        (7.0, 1, "7.0"),
        (12345.678, 1, "12345.7"),
        (0.05, 1, "0.1"),
        (1e-9, 9, "0.000000001"),
        (48.1173, 9, "48.117300000"),
        (11.516666666666667, 9, "11.516666667"),
        (-45.8775672, 9, "-45.877567200"),
        (170.5001113, 7, "170.5001113"),
        (-179.999999999, 9, "-179.999999999"),
        (545.4, 3, "545.400"),
        (0.25722222222222224, 3, "0.257"),
    ] as [(Double, Int, String)])
    func decimals(value: Double, decimals: Int, expected: String) {
        #expect(written { $0.append(value, decimals: decimals) } == expected)
    }

    @Test("Negative numbers that round to zero print without a sign", arguments: [
        (-0.0000001, 3, "0.000"),
        (-0.0004, 3, "0.000"),
        (-0.0, 2, "0.00"),
        (-0.4, 0, "0"),
        (-0.00000000049, 9, "0.000000000"),
    ] as [(Double, Int, String)])
    func negativeZero(value: Double, decimals: Int, expected: String) {
        #expect(written { $0.append(value, decimals: decimals) } == expected)
    }

    @Test("Negative numbers that do not round to zero keep their sign")
    func negatives() {
        #expect(written { $0.append(-0.0005, decimals: 3) } == "-0.001")
        #expect(written { $0.append(-0.25, decimals: 3) } == "-0.250")
        #expect(written { $0.append(-12.5, decimals: 1) } == "-12.5")
    }

    @Test("Agrees with C's %.Nf for ordinary receiver values")
    func agreesWithPrintf() {
        // A fixed pseudo-random sweep over coordinates, altitudes and speeds.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var mismatches: [String] = []
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let unit = Double(state >> 11) / Double(1 << 53)
            let value = (unit - 0.5) * 400
            let decimals = Int(state % 10)
            let ours = written { $0.append(value, decimals: decimals) }
            let c = String(format: "%.\(decimals)f", value)
            if ours != c && !(c.hasPrefix("-") && ours == String(c.dropFirst())) { mismatches.append("\(value) %.\(decimals)f: \(ours) vs \(c)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test("Non-finite numbers are written as null")
    func nonFinite() {
        #expect(written { $0.append(Double.nan, decimals: 3) } == "null")
        #expect(written { $0.append(Double.infinity, decimals: 3) } == "null")
        #expect(written { $0.append(-Double.infinity, decimals: 1) } == "null")
    }

    @Test("append(_ Int, width:) pads with zeros")
    func integers() {
        #expect(written { $0.append(7, width: 2) } == "07")
        #expect(written { $0.append(123, width: 2) } == "123")
        #expect(written { $0.append(0) } == "0")
        #expect(written { $0.append(42, width: 3) } == "042")
        #expect(written { $0.append(-5) } == "-5")
        #expect(written { $0.append(Int.max) } == String(Int.max))
        #expect(written { $0.append(Int.min) } == String(Int.min))
        #expect(written { $0.append(-5, width: 3) } == "-005")
        #expect(written { $0.append(2019, width: 4) } == "2019")
    }

    @Test("Every digit count is right on both sides of each power of ten")
    func powersOfTen() {
        var power = 1
        for _ in 0..<19 {
            for n in [power - 1, power, power + 1] {
                #expect(written { $0.append(n) } == String(n))
                #expect(written { $0.append(-n) } == String(-n))
            }
            power = power &* 10
        }
        // Where rounding carries into a new digit before the point, and large magnitudes.
        #expect(written { $0.append(999.9996, decimals: 3) } == "1000.000")
        #expect(written { $0.append(9.96, decimals: 1) } == "10.0")
        #expect(written { $0.append(-99.5, decimals: 0) } == "-100")
        #expect(written { $0.append(123_456_789.25, decimals: 1) } == "123456789.3")
        #expect(written { $0.append(-12_345.678901234, decimals: 9) } == String(format: "%.9f", -12_345.678901234))
    }

    @Test("Strings, bytes and hex")
    func text() {
        #expect(written {
            $0.append("static")
            $0.append(String("-dynamic-ü"))
            $0.append(byte: 0x21)
            $0.appendHexByte(0xAB)
            $0.appendHexByte(0x05)
        } == "static-dynamic-ü!AB05")
    }

    @Test("appendJSONString escapes what JSON requires, and parses back to the same string")
    func jsonString() throws {
        // Given
        let original = "say \"hi\"\\ \n\r\t\u{1}\u{1F} ünïcödé ✓"

        // When
        let text = written { $0.appendJSONString(original) }

        // Then
        #expect(text == #""say \"hi\"\\ \n\r\t\u0001\u001F ünïcödé ✓""#)
        let parsed = try JSONSerialization.jsonObject(with: Data("[\(text)]".utf8)) as? [String]
        #expect(parsed == [original])
    }

    @Test("removeAll empties the buffer")
    func removeAll() {
        var w = ByteWriter()
        w.append("abc")
        w.removeAll()
        let emptied = w.bytes
        #expect(emptied.isEmpty)
        w.append("d")
        let after = w.bytes
        #expect(after == [0x64])
    }

    @Test("The buffer grows past its initial capacity and keeps every byte")
    func growth() {
        // Given
        var w = ByteWriter(capacity: 1)
        var expected: [UInt8] = []

        // When
        for i in 0..<5_000 {
            w.append(i, width: 5)
            w.append(byte: 0x2C)
            expected += Array(String(1_000_000 + i).dropFirst(2).utf8) + [0x2C]
        }
        w.append(bytes: Array(repeating: 0x41, count: 70_000))
        expected += Array(repeating: 0x41, count: 70_000)

        // Then
        let count = w.count, bytes = w.bytes, viewed = w.withUnsafeBytes { Array($0) }
        #expect(count == expected.count)
        #expect(bytes == expected)
        #expect(viewed == expected)
        w.removeAll()
        let isEmpty = w.isEmpty
        #expect(isEmpty)
        w.append("again")
        let again = w.bytes
        #expect(again == Array("again".utf8))
    }
}
