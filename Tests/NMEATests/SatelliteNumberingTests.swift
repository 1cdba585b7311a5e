import NMEA
import Testing

/// NMEA's satellite numbers without a hint from the talker (GP, GN): one space, gpsd's PRNs
/// but for BeiDou at 201–263 (NMEA 4.x) and NavIC, which has no number there.
@Suite("Satellite numbers as NMEA writes them")
struct SatelliteNumberingTests {
    @Test("Every range's edges, and the gaps between them", arguments: [
        (1, SatelliteID(constellation: .gps, svid: 1)), (32, SatelliteID(constellation: .gps, svid: 32)),
        (33, SatelliteID(constellation: .sbas, svid: 120)), (64, SatelliteID(constellation: .sbas, svid: 151)),
        (65, SatelliteID(constellation: .glonass, svid: 1)), (96, SatelliteID(constellation: .glonass, svid: 32)),
        (97, nil), (119, nil),
        (120, SatelliteID(constellation: .sbas, svid: 120)), (158, SatelliteID(constellation: .sbas, svid: 158)),
        (159, nil), (172, nil),
        (173, SatelliteID(constellation: .imes, svid: 1)), (182, SatelliteID(constellation: .imes, svid: 10)),
        (183, nil), (192, nil),
        (193, SatelliteID(constellation: .qzss, svid: 1)), (199, SatelliteID(constellation: .qzss, svid: 7)),
        (200, nil),
        (201, SatelliteID(constellation: .beidou, svid: 1)), (263, SatelliteID(constellation: .beidou, svid: 63)),
        (264, nil), (300, nil),
        (301, SatelliteID(constellation: .galileo, svid: 1)), (336, SatelliteID(constellation: .galileo, svid: 36)),
        (337, nil), (400, nil),
        (401, SatelliteID(constellation: .beidou, svid: 1)), (463, SatelliteID(constellation: .beidou, svid: 63)),
        (464, nil), (801, nil), (814, nil), (0, nil), (-1, nil),
    ] as [(Int, SatelliteID?)])
    func unhinted(number: Int, expected: SatelliteID?) {
        #expect(SatelliteID(nmea: number, hint: nil) == expected)
        #expect(SatelliteID(nmea: number, hint: .gps) == expected)
    }
}
