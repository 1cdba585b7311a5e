import Foundation
import Glibc
import NMEA
import Testing

/// The magnetic variation gpsd fills in: WMM2015 at 2020.0 on a 5° grid, interpolated.
@Suite("Magnetic model")
struct MagneticModelTests {
    // MARK: - The model itself

    /// One of NOAA's published test values for WMM2015 (the model's report and its
    /// WMM2015_TEST_VALUES): the field in nT to 0.1, the declination to 0.01°.
    struct TestValue: Sendable, CustomTestStringConvertible {
        var year: Double, heightKilometres: Double, latitude: Double, longitude: Double
        var x: Double, y: Double, z: Double, declination: Double
        var testDescription: String { "\(year) \(heightKilometres) km \(latitude) \(longitude)" }
    }

    @Test("WMM2015 gives NOAA's test values: field to 0.1 nT, declination to 0.01°", arguments: [
        TestValue(year: 2015.0, heightKilometres: 0, latitude: 80, longitude: 0, x: 6627.1, y: -445.9, z: 54432.3, declination: -3.85),
        TestValue(year: 2015.0, heightKilometres: 0, latitude: 0, longitude: 120, x: 39518.2, y: 392.9, z: -11252.4, declination: 0.57),
        TestValue(year: 2015.0, heightKilometres: 0, latitude: -80, longitude: 240, x: 5797.3, y: 15761.1, z: -52919.1, declination: 69.81),
        TestValue(year: 2015.0, heightKilometres: 100, latitude: 80, longitude: 0, x: 6314.3, y: -471.6, z: 52269.8, declination: -4.27),
        TestValue(year: 2015.0, heightKilometres: 100, latitude: 0, longitude: 120, x: 37535.6, y: 364.4, z: -10773.4, declination: 0.56),
        TestValue(year: 2015.0, heightKilometres: 100, latitude: -80, longitude: 240, x: 5613.1, y: 14791.5, z: -50378.6, declination: 69.22),
        TestValue(year: 2017.5, heightKilometres: 0, latitude: 80, longitude: 0, x: 6599.4, y: -317.1, z: 54459.2, declination: -2.75),
        TestValue(year: 2017.5, heightKilometres: 0, latitude: 0, longitude: 120, x: 39571.4, y: 222.5, z: -11030.1, declination: 0.32),
        TestValue(year: 2017.5, heightKilometres: 0, latitude: -80, longitude: 240, x: 5873.8, y: 15781.4, z: -52687.9, declination: 69.58),
        TestValue(year: 2017.5, heightKilometres: 100, latitude: 80, longitude: 0, x: 6290.5, y: -348.5, z: 52292.7, declination: -3.17),
        TestValue(year: 2017.5, heightKilometres: 100, latitude: 0, longitude: 120, x: 37585.5, y: 209.5, z: -10564.2, declination: 0.32),
        TestValue(year: 2017.5, heightKilometres: 100, latitude: -80, longitude: 240, x: 5683.5, y: 14808.8, z: -50163.0, declination: 69.00),
    ])
    func noaaTestValues(_ expected: TestValue) throws {
        // Given WMM2015, at the test's point, height and date
        let model = WorldMagneticModel.wmm2015
        let height = expected.heightKilometres * 1000

        // When it is evaluated
        let field = try #require(model.field(latitude: expected.latitude, longitude: expected.longitude, height: height, year: expected.year))
        let declination = try #require(model.declination(latitude: expected.latitude, longitude: expected.longitude,
                                                         height: height, year: expected.year))

        // Then each value rounds to NOAA's
        #expect(abs(field.north - expected.x) <= 0.05 + 1e-6)
        #expect(abs(field.east - expected.y) <= 0.05 + 1e-6)
        #expect(abs(field.down - expected.z) <= 0.05 + 1e-6)
        #expect(abs(declination - expected.declination) <= 0.005 + 1e-9)
    }

    @Test("The model refuses what is not a place on Earth or not a date", arguments: [
        (Double.nan, 0.0, 0.0, 2020.0), (0, .nan, 0, 2020), (0, 0, .nan, 2020), (0, 0, 0, .nan),
        (90.001, 0, 0, 2020), (-90.001, 0, 0, 2020), (0, 360.001, 0, 2020), (0, -.infinity, 0, 2020),
        (0, 0, -20_000, 2020), (0, 0, 2_000_000, 2020), (0, 0, 0, .infinity),
    ] as [(Double, Double, Double, Double)])
    func modelRefuses(latitude: Double, longitude: Double, height: Double, year: Double) {
        #expect(WorldMagneticModel.wmm2015.declination(latitude: latitude, longitude: longitude, height: height, year: year) == nil)
    }

    // MARK: - The grid

    @Test("Nodes hold WMM2015 at 2020.0, rounded to 0.01° as gpsd's table", arguments: [
        // latitude, longitude, declination (from Tools/wmm/wmm.py grid WMM_2015.COF 2020.0)
        (0.0, 0.0, -4.84), (50, 0, 0.04), (-45, 170, 24.79), (45, -5, -1.14), (90, 0, 1.75), (-90, 0, -30.80),
    ] as [(Double, Double, Double)])
    func knownNodes(latitude: Double, longitude: Double, expected: Double) throws {
        let value = try #require(MagneticModel.declination(latitude: latitude, longitude: longitude))
        #expect(abs(value - expected) < 1e-9)
    }

    @Test("Every node reads its own value: the model at that node, rounded to 0.01°")
    func everyNode() throws {
        var wrong: [String] = []
        for row in 0..<37 {
            for column in 0..<73 {
                let latitude = Double(row * 5 - 90), longitude = Double(column * 5 - 180)
                let model = try #require(WorldMagneticModel.wmm2015.declination(latitude: latitude, longitude: longitude, year: 2020))
                let node = try #require(MagneticModel.declination(latitude: latitude, longitude: longitude))
                if abs(node - (model * 100).rounded() / 100) > 1e-9 { wrong.append("\(latitude),\(longitude): \(node) for \(model)") }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    @Test("Between nodes the value is bilinear: the middle of a cell is the mean of its corners, an edge is linear")
    func bilinear() throws {
        func at(_ latitude: Double, _ longitude: Double) throws -> Double {
            try #require(MagneticModel.declination(latitude: latitude, longitude: longitude))
        }
        // Given a cell of ordinary field, 45° to 50° N and 5° to 10° E
        let sw = try at(45, 5), se = try at(45, 10), nw = try at(50, 5), ne = try at(50, 10)
        #expect(Set([sw, se, nw, ne]).count == 4)

        // Then its middle is the corners' mean, a quarter of the way along an edge a quarter
        // of the difference, and any point the weighted sum
        #expect(abs(try at(47.5, 7.5) - (sw + se + nw + ne) / 4) < 1e-12)
        #expect(abs(try at(45, 6.25) - (sw + (se - sw) / 4)) < 1e-12)
        #expect(abs(try at(48, 5) - (sw + (nw - sw) * 3 / 5)) < 1e-12)
        let u = 0.3, v = 0.9
        let weighted = sw * (1 - u) * (1 - v) + se * u * (1 - v) + nw * (1 - u) * v + ne * u * v
        #expect(abs(try at(45 + 5 * v, 5 + 5 * u) - weighted) < 1e-12)
    }

    @Test("The edges: 180° and −180° are one meridian, and at a pole the declination turns with the longitude")
    func edges() throws {
        for latitude in stride(from: -90.0, through: 90, by: 2.5) {
            let east = try #require(MagneticModel.declination(latitude: latitude, longitude: 180))
            let west = try #require(MagneticModel.declination(latitude: latitude, longitude: -180))
            #expect(abs(Self.turn(east - west)) < 1e-9, "at \(latitude)°")
        }
        // At a pole, "north" is along the meridian given: at the north pole the declination
        // grows one for one with the longitude, at the south pole it falls.
        let north0 = try #require(MagneticModel.declination(latitude: 90, longitude: 0))
        let south0 = try #require(MagneticModel.declination(latitude: -90, longitude: 0))
        for longitude in stride(from: -180.0, through: 180, by: 2.5) {
            let north = try #require(MagneticModel.declination(latitude: 90, longitude: longitude))
            let south = try #require(MagneticModel.declination(latitude: -90, longitude: longitude))
            #expect(abs(Self.turn(north - (north0 + longitude))) < 1e-9, "north pole at \(longitude)")
            #expect(abs(Self.turn(south - (south0 - longitude))) < 1e-9, "south pole at \(longitude)")
            #expect(north > -180 && north <= 180 && south > -180 && south <= 180)
        }
    }

    @Test("Where the corners of a cell straddle ±180°, the directions are interpolated, not the numbers")
    func acrossTheTurn() throws {
        // Given a cell south of Australia, 80° to 75° S and 145° to 150° E, whose corners are
        // about −180°, 172°, 174° and 163°: their numbers' mean is near 0, which points the
        // other way
        let corners = try [(-80.0, 145.0), (-80, 150), (-75, 145), (-75, 150)].map {
            try #require(MagneticModel.declination(latitude: $0.0, longitude: $0.1))
        }
        #expect(corners.max()! - corners.min()! > 180)

        // When the middle is asked for
        let middle = try #require(MagneticModel.declination(latitude: -77.5, longitude: 147.5))

        // Then it is within a degree of the model there
        let model = try #require(WorldMagneticModel.wmm2015.declination(latitude: -77.5, longitude: 147.5, year: 2020))
        #expect(abs(Self.turn(middle - model)) < 1)
        #expect(abs(middle) > 170)
    }

    @Test("What is not a position gives nil, never a trap", arguments: [
        (Double.nan, 0.0), (0, .nan), (.nan, .nan), (.infinity, 0), (-.infinity, 0), (0, .infinity), (0, -.infinity),
        (90.000_000_1, 0), (-90.000_000_1, 0), (0, 180.000_000_1), (0, -180.000_000_1),
        (.greatestFiniteMagnitude, 0), (0, -.greatestFiniteMagnitude), (Double.signalingNaN, 0),
    ] as [(Double, Double)])
    func refuses(latitude: Double, longitude: Double) {
        #expect(MagneticModel.declination(latitude: latitude, longitude: longitude) == nil)
    }

    @Test("Every position on the grid's range has a value from −180 to 180", arguments: [
        (-90.0, -180.0), (-90, 180), (90, -180), (90, 180), (-0.0, -0.0), (0, 0), (89.999_999, 179.999_999),
        (-89.999_999, -179.999_999), (.leastNonzeroMagnitude, -.leastNonzeroMagnitude),
    ] as [(Double, Double)])
    func corners(latitude: Double, longitude: Double) throws {
        let value = try #require(MagneticModel.declination(latitude: latitude, longitude: longitude))
        #expect(value >= -180 && value <= 180)
    }

    // MARK: - Against gpsd's own table

    /// gpsd's table as its Python client helpers carry it (the same as geoid.c's), where
    /// gpsd's Python package is installed; read in place, never copied.
    static let gpsdHelpers = "/usr/lib/python3/dist-packages/gps/clienthelpers.py"

    static var gpsdTable: [[Int]]? {
        guard let text = try? String(contentsOfFile: gpsdHelpers, encoding: .utf8),
              let start = text.range(of: "magvar_table = ["),
              let end = text.range(of: "]]", range: start.upperBound..<text.endIndex)
        else { return nil }
        var rows: [[Int]] = []
        for line in text[start.upperBound..<end.upperBound].split(separator: "\n") {
            let code = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            if code.contains("[") { rows.append([]) }
            let numbers = code.split(whereSeparator: { !"-0123456789".contains($0) }).compactMap { Int($0) }
            if !rows.isEmpty { rows[rows.count - 1] += numbers }
        }
        return rows.count == 37 && rows.allSatisfy { $0.count == 73 } ? rows : nil
    }

    @Test("Every one of the 2701 nodes equals gpsd's table", .enabled(if: FileManager.default.fileExists(atPath: gpsdHelpers), "gpsd's Python package is not installed"))
    func gpsdNodes() throws {
        let table = try #require(Self.gpsdTable, "gpsd's table was not read from \(Self.gpsdHelpers)")
        var differing: [String] = []
        for row in 0..<37 {
            for column in 0..<73 {
                let value = try #require(MagneticModel.declination(latitude: Double(row * 5 - 90), longitude: Double(column * 5 - 180)))
                if Int((value * 100).rounded()) != table[row][column] {
                    differing.append("\(row * 5 - 90),\(column * 5 - 180): \(value) for gpsd's \(table[row][column])")
                }
            }
        }
        #expect(differing.isEmpty, "\(differing.count) nodes differ: \(differing.prefix(5))")
    }

    @Test("Between the nodes, gpsd's interpolation on gpsd's table, but in the cells that straddle ±180°",
          .enabled(if: FileManager.default.fileExists(atPath: gpsdHelpers), "gpsd's Python package is not installed"))
    func gpsdBetween() throws {
        let table = try #require(Self.gpsdTable)
        var compared = 0, straddling = 0, worst = 0.0
        // Every 0.37° of latitude and 0.53° of longitude: points in every cell, on no node.
        for latitude in stride(from: -90.0, through: 90, by: 0.37) {
            for longitude in stride(from: -180.0, through: 180, by: 0.53) {
                // gpsd's cell (the next row and column held at the table's edge) and its weights
                let row = Int(((90 + latitude) / 5).rounded(.down)), column = Int(((180 + longitude) / 5).rounded(.down))
                let row2 = min(row + 1, 36), column2 = min(column + 1, 72)
                let corners = [table[row][column], table[row][column2], table[row2][column], table[row2][column2]].map(Double.init)
                if corners.max()! - corners.min()! > 18_000 {
                    straddling += 1
                    continue
                }
                let v = row2 == row ? 0 : (latitude - Double(row * 5 - 90)) / 5
                let u = column2 == column ? 0 : (longitude - Double(column * 5 - 180)) / 5
                let gpsd = (corners[0] * (1 - u) * (1 - v) + corners[1] * u * (1 - v) + corners[2] * (1 - u) * v + corners[3] * u * v) / 100
                let ours = try #require(MagneticModel.declination(latitude: latitude, longitude: longitude))
                worst = max(worst, abs(ours - gpsd))
                compared += 1
            }
        }
        #expect(compared > 300_000 && straddling > 0)
        #expect(worst < 1e-9)
    }

    // MARK: - The arithmetic

    @Test("sin and cos in degrees agree with the C library's, and are exact at multiples of 90°")
    func sinCos() {
        var worst = 0.0
        for step in -2000...2000 {
            let degrees = Double(step) * 0.3617
            let (s, c) = DegreeTrigonometry.sinCos(degrees: degrees)
            let radians = degrees * .pi / 180
            worst = max(worst, abs(s - Glibc.sin(radians)), abs(c - Glibc.cos(radians)))
        }
        #expect(worst < 1e-14)
        for quarter in -8...8 {
            let (s, c) = DegreeTrigonometry.sinCos(degrees: Double(quarter) * 90)
            let expected: [(Double, Double)] = [(0, 1), (1, 0), (0, -1), (-1, 0)]
            let e = expected[((quarter % 4) + 4) % 4]
            #expect(s == e.0 && c == e.1, "\(quarter * 90)°")
            #expect(c.sign == .plus || c != 0, "cos \(quarter * 90)° is +0")
        }
        #expect(DegreeTrigonometry.sinCos(degrees: .nan).sin.isNaN)
        #expect(DegreeTrigonometry.sinCos(degrees: .infinity).cos.isNaN)
    }

    @Test("atan2 in degrees agrees with the C library's in every quadrant and on the axes")
    func atan2() {
        var worst = 0.0
        for i in -60...60 {
            for j in -60...60 {
                let y = Double(i) * 0.731, x = Double(j) * 1.093
                if x == 0 && y == 0 { continue }
                let expected = Glibc.atan2(y, x) * 180 / .pi
                worst = max(worst, abs(DegreeTrigonometry.atan2Degrees(y, x) - expected))
            }
        }
        #expect(worst < 1e-12)
        #expect(DegreeTrigonometry.atan2Degrees(1, 0) == 90)
        #expect(DegreeTrigonometry.atan2Degrees(-1, 0) == -90)
        #expect(DegreeTrigonometry.atan2Degrees(0, -1) == 180)
        #expect(DegreeTrigonometry.atan2Degrees(0, 1) == 0)
        #expect(DegreeTrigonometry.atan2Degrees(0, 0) == 0)
        #expect(abs(DegreeTrigonometry.atan2Degrees(.infinity, -.infinity) - 135) < 1e-12)
        #expect(DegreeTrigonometry.atan2Degrees(1e-300, 1e300) >= 0)
        #expect(DegreeTrigonometry.atan2Degrees(.nan, 1).isNaN)
    }

    /// An angle difference brought to −180 to 180.
    static func turn(_ degrees: Double) -> Double {
        var d = degrees.truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 }
        if d <= -180 { d += 360 }
        return d
    }
}
