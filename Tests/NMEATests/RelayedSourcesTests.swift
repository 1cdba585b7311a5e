import NMEA
import Testing

/// A chartplotter (gpsd's B&G Zeus² capture) relays sentences from solutions a second apart:
/// its GGA is older than the RMC and GLL around it, and its RMC and GLL may differ from each
/// other. gpsd reports every RMC and GLL position and never such a GGA's; so does gpsfix. An
/// altitude goes only with its own solution's position: a GGA's is not attached to an RMC or
/// GLL position a second of travel away.
@Suite("Positions relayed from more than one solution")
struct RelayedSourcesTests {
    @Test("A GGA whose position disagrees with its epoch's RMC gives way, and its altitude with it")
    func staleGGA() {
        // Given RMC then GGA of one second, 0.0009' (about 1.7 m) apart, then the next epoch
        let out = events(nmea([
            "GPRMC,094821,A,5250.9669,N,00518.7242,E,5.9,233.4,200818,1.4,E,A",
            "GPGGA,094821,5250.9661,N,00518.7222,E,1,12,0.60,-5,M,46.8,M,,",
            "GPRMC,094822,A,5250.9660,N,00518.7220,E,5.6,235.5,200818,1.4,E,A",
        ]))
        // Then the first fix is at the RMC's position, without the stale solution's altitude
        let fix = out.fixes[0]
        #expect(near(fix.coordinate?.latitude, degrees(52, 50.9669)))
        #expect(near(fix.coordinate?.longitude, degrees(5, 18.7242)))
        #expect(fix.altitude == nil)
        #expect(fix.ellipsoidalAltitude == nil)
        #expect(out.fixes.count == 2, "one fix per second: a GGA does not split an epoch")
    }

    @Test("A GGA that agrees within rounding lends its finer resolution")
    func finerGGA() {
        let out = events(nmea([
            "GPRMC,120000,A,4807.038,N,01131.000,E,0.0,0.0,150624,,,A",
            "GPGGA,120000,4807.03812,N,01131.00024,E,1,08,0.9,545.4,M,46.9,M,,",
        ]))
        #expect(near(out.fixes.first?.coordinate?.latitude, degrees(48, 7.03812), within: 1e-9))
        #expect(near(out.fixes.first?.coordinate?.longitude, degrees(11, 31.00024), within: 1e-9))
    }

    @Test("A GLL after a GGA of the same second is the later word, with no split, and a few decimetres off is the same solution")
    func gllAfterGGA() {
        let out = events(nmea([
            "GPGGA,094736,5251.0094,N,00518.8172,E,1,12,0.60,-4,M,46.8,M,,",
            "GPGLL,5251.0093,N,00518.8170,E,094736,A,A",
        ]))
        #expect(out.fixes.count == 1)
        #expect(near(out.fixes.first?.coordinate?.longitude, degrees(5, 18.8170)))
        #expect(out.fixes.first?.altitude == -4)
    }

    @Test("An RMC and a GLL of one second that disagree beyond rounding are two fixes, neither with another solution's altitude")
    func rmcAndGLLDisagree() {
        // Given a full epoch, then GLL and RMC of the next second 0.0001'/0.0002' apart, then its GGA
        let out = events(nmea([
            "GPRMC,094838,A,5250.9509,N,00518.6876,E,5.1,240.4,200818,1.4,E,A",
            "GPGGA,094838,5250.9509,N,00518.6876,E,1,12,0.60,-5,M,46.8,M,,",
            "GPGLL,5250.9502,N,00518.6857,E,094839,A,A",
            "GPGSA,A,3,07,08,10,16,20,21,26,27,29,76,75,70,1.10,0.60,0.90",
            "GPRMC,094839,A,5250.9501,N,00518.6855,E,6.1,240.8,200818,1.4,E,A",
            "GPGGA,094839,5250.9495,N,00518.6839,E,1,12,0.60,-6,M,46.8,M,,",
        ]))
        // Then 09:48:39 is reported twice: at the GLL's position and at the RMC's, never the GGA's
        let fixes = out.fixes
        #expect(fixes.count == 3)
        let nineFortyEight39 = (9 * 3600 + 48 * 60 + 39) * 1000
        #expect(fixes.dropFirst().map { $0.timestamp?.time.milliseconds } == [nineFortyEight39, nineFortyEight39])
        #expect(near(fixes[1].coordinate?.longitude, degrees(5, 18.6857)))
        #expect(fixes[0].altitude == -5, "the GGA agrees with its RMC: one solution")
        #expect(fixes[1].altitude == nil, "the GLL is 2.5 m from the last GGA: not its solution")
        #expect(near(fixes[2].coordinate?.longitude, degrees(5, 18.6855)))
        #expect(fixes[2].altitude == nil, "the GGA of 09:48:39 is 2 m from the RMC: another solution")
    }

    @Test("A plotter's GLL that restates the last GGA's position a second later keeps that solution's altitude")
    func gllRestatesLastGGA() {
        // Given (gpsd's B&G capture) a GGA, then the next second's GLL at the very same position
        let out = events(nmea([
            "GPRMC,094817,A,5250.9705,N,00518.7323,E,5.7,238.1,200818,1.4,E,A",
            "GPGGA,094817,5250.9696,N,00518.7305,E,1,12,0.60,-5,M,46.8,M,,",
            "GPGLL,5250.9696,N,00518.7305,E,094818,A,A",
            "GPRMC,094818,A,5250.9695,N,00518.7303,E,5.6,229.6,200818,1.4,E,A",
            "GPGGA,094818,5250.9688,N,00518.7285,E,1,12,0.60,-6,M,46.8,M,,",
        ]))
        // Then the GLL's fix has the altitude of the solution it restates; the RMCs have none
        let byLongitude = out.fixes.map { ($0.coordinate?.longitude, $0.altitude) }
        let gll = byLongitude.first { near($0.0, degrees(5, 18.7305)) }
        #expect(gll?.1 == -5)
        #expect(out.fixes.filter { near($0.coordinate?.longitude, degrees(5, 18.7323)) }.allSatisfy { $0.altitude == nil })
    }

    @Test("Positions that differ only by rounding are one fix", arguments: [
        ("5250.9502", "00518.6857", "5250.95024", "00518.68566"),
        ("5250.9502", "00518.6857", "5250.9502", "00518.6857"),
    ])
    func rounding(_ lat1: String, _ lon1: String, _ lat2: String, _ lon2: String) {
        let out = events(nmea([
            "GPGLL,\(lat1),N,\(lon1),E,094839,A,A",
            "GPRMC,094839,A,\(lat2),N,\(lon2),E,6.1,240.8,200818,1.4,E,A",
        ]))
        #expect(out.fixes.count == 1)
    }
}
