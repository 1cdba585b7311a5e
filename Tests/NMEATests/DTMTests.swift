import Foundation
import NMEA
import Testing

/// The datum reference: its local datum is the fix's `datum`, as gpsd's TPV names it.
@Suite("DTM")
struct DTMTests {
    @Test("u-blox's full DTM: local datum, offsets signed by their letters, reference datum")
    func ublox() throws {
        // Given u-blox's documented form, and one with offsets south and west
        let x = try #require(decoded("GPDTM,W84,,0.0,N,0.0,E,0.0,W84") as? DTM)
        let y = try #require(decoded("GNDTM,999,A,0.08,S,0.25,W,-2.5,W84") as? DTM)
        // Then each field is read as sent, the offsets north and east positive
        #expect(x.localDatum == .wgs84 && x.referenceDatum == .wgs84 && x.subdivision == nil)
        #expect(x.latitudeOffset == 0 && x.longitudeOffset == 0 && x.altitudeOffset == 0)
        #expect(y.localDatum == .userDefined && y.subdivision == "A")
        #expect(y.latitudeOffset == -0.08 && y.longitudeOffset == -0.25 && y.altitudeOffset == -2.5)
        #expect(x.outOfRange == 0 && y.outOfRange == 0)
    }

    @Test("the datum alone (a Saab R4's $GPDTM,W84,C): every other field unknown")
    func datumAlone() throws {
        let x = try #require(decoded("GPDTM,W84,C") as? DTM)
        #expect(x.localDatum == .wgs84 && x.subdivision == "C")
        #expect(x.latitudeOffset == nil && x.longitudeOffset == nil && x.altitudeOffset == nil && x.referenceDatum == nil)
    }

    @Test("a code that is no datum code, an offset past a degree or without its letter: unknown, and counted",
          arguments: [
              ("GPDTM,W84XY,,0.0,N,0.0,E,0.0,W84", 1), ("GPDTM,W8;,,,,,,,W84", 1), ("GPDTM,W84,,61.0,N,0.0,E,0.0,W84", 1),
              ("GPDTM,W84,,0.1,,0.2,X,0.0,W84", 0), ("GPDTM,W84,,0.0,N,0.0,E,12000,W84", 1), ("GPDTM,W84,,0.0,N,0.0,E,0.0,W 4", 1),
          ])
    func hostile(body: String, counted: Int) throws {
        let x = try #require(decoded(body) as? DTM)
        #expect(x.outOfRange == counted)
        // The offsets are either as sent or unknown: never a sign guessed
        #expect(x.latitudeOffset == nil || x.latitudeOffset == 0)
        #expect(x.longitudeOffset == nil || x.longitudeOffset == 0)
    }

    @Test("gpsd's names: WGS84, WGS72, SGS85, PE90, User Defined, any other code as sent; and back", arguments: [
        ("W84", "WGS84"), ("W72", "WGS72"), ("S85", "SGS85"), ("P90", "PE90"), ("999", "User Defined"), ("EUR", "EUR"), ("TOY1", "TOY1"),
    ])
    func names(code: String, name: String) throws {
        let datum = try #require(Datum(code: code))
        #expect(datum.code == code && datum.name == name)
        #expect(Datum(gpsdName: name) == datum)
        let encoded = try JSONEncoder().encode(datum)
        #expect(String(decoding: encoded, as: UTF8.self) == "\"\(code)\"")
        #expect(try JSONDecoder().decode(Datum.self, from: encoded) == datum)
    }

    @Test("the cycle's DTM is its fix's datum; a cycle without one has none")
    func fixDatum() {
        // Given two seconds, the first with a DTM after its RMC (as the Saab R4 sends it)
        let fixes = events(nmea([
            "GPGGA,130711,5012.790800,N,00806.879600,W,2,,,,,,,",
            "GPRMC,130711.00,A,5012.790800,N,00806.879600,W,0.5,3.0,010611,,A",
            "GPDTM,P90,,0.0,N,0.0,E,0.0,W84",
            "GPGGA,130712,5012.790800,N,00806.879600,W,2,,,,,,,",
            "GPRMC,130712.00,A,5012.790800,N,00806.879600,W,0.5,3.0,010611,,A",
        ])).fixes
        // Then the first fix is in PE 90 and the second names no datum
        #expect(fixes.map(\.datum) == [.pe90, nil])
    }
}
