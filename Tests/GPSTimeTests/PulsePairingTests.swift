import GPSSystem
import GPSTime
import Testing

/// The pairing of pulses with the seconds the receiver's epochs name, with times chosen here:
/// a pulse `phase` after each system second, its epoch arriving `late` after the pulse.
@Suite("Pulses paired with NMEA seconds")
struct PulsePairingTests {
    static let start: Int64 = 1_772_323_200
    let phase = 250_000 // ns

    func pulse(_ second: Int64, extra: Int64 = 0) -> Pulse {
        Pulse(time: WallTime(seconds: second, nanoseconds: Int64(phase) + extra))
    }

    /// Runs `seconds` of pulses and epochs; `named` says which second each epoch names (nil:
    /// as it should), `usable` whether it had a fix and a date. Returns what was sent.
    func run(_ pairing: inout PulsePairing, _ seconds: Range<Int64>, late: Double = 0.1, skip: Set<Int64> = [],
             double: Set<Int64> = [], named: [Int64: Int64] = [:], unusable: Set<Int64> = []) -> [PulseSample] {
        var sent: [PulseSample] = []
        for index in seconds {
            let second = Self.start + index
            if !skip.contains(index) { pairing.record(pulse(second)) }
            if double.contains(index) { pairing.record(pulse(second, extra: 300_000_000)) }
            let arrival = pulse(second).time.unixSeconds + late
            if let sample = pairing.epoch(second: named[index].map { Self.start + $0 } ?? second, usable: !unusable.contains(index), arrival: arrival) {
                sent.append(sample)
            }
        }
        return sent
    }

    @Test("Each pulse begins the second the epoch after it names; the first waits for a second to agree with")
    func after() throws {
        var pairing = PulsePairing()
        let sent = run(&pairing, 0..<10)
        #expect(sent.count == 9)
        #expect(pairing.counts.waiting == 1 && pairing.counts.rejected == 0)
        let first = try #require(sent.first)
        #expect(first.second == Self.start + 1)
        #expect(first.pulse == WallTime(seconds: Self.start + 1, nanoseconds: 250_000))
        // True minus system, to the nanosecond.
        #expect(first.offset == -0.00025)
        #expect(abs(first.nmeaDelay - 0.1) < 1e-6)
    }

    @Test("A wrong NMEA second is counted and never sent; the pulses after it are")
    func wrongSecond() {
        var pairing = PulsePairing()
        let sent = run(&pairing, 0..<10, named: [5: 7])
        #expect(pairing.counts.disagreed == 1)
        #expect(!sent.contains { $0.pulse.seconds == Self.start + 5 })
        #expect(sent.count == 8)
        #expect(sent.allSatisfy { $0.second == $0.pulse.seconds })
    }

    @Test("A missing pulse leaves its epoch unpaired; the next pulse still agrees across the gap")
    func missing() {
        var pairing = PulsePairing()
        let sent = run(&pairing, 0..<10, skip: [4])
        #expect(pairing.counts.missingPulse == 1)
        #expect(sent.count == 8)
        #expect(sent.allSatisfy { $0.second == $0.pulse.seconds })
    }

    @Test("A doubled pulse is dropped with the one before it")
    func doubled() {
        var pairing = PulsePairing()
        let sent = run(&pairing, 0..<10, double: [4])
        #expect(pairing.counts.doubled == 1)
        // Counted once, as doubled: its epoch is not also an epoch without a pulse.
        #expect(pairing.counts.missingPulse == 0 && pairing.counts.rejected == 1)
        #expect(!sent.contains { $0.pulse.seconds == Self.start + 4 })
        #expect(sent.count == 8)
    }

    @Test("An epoch without a fix or a date uses up its pulse, sends nothing, and is counted")
    func noFix() {
        var pairing = PulsePairing()
        let sent = run(&pairing, 0..<10, unusable: [3, 6])
        #expect(pairing.counts.noFix == 2)
        #expect(sent.count == 7)
    }

    @Test("An epoch more than the window after the pulse does not pair (an MTK's 500 ms does)")
    func window() {
        var late = PulsePairing()
        #expect(run(&late, 0..<5, late: 0.5).count == 4)
        var tooLate = PulsePairing()
        #expect(run(&tooLate, 0..<5, late: 0.995).isEmpty)
        #expect(tooLate.counts.missingPulse == 5)
    }

    @Test("A stepped system clock is followed after two pairs")
    func step() {
        var pairing = PulsePairing()
        var sent = run(&pairing, 0..<5)
        // The system clock jumps 10 s ahead: pulses now come at system second S + 10.
        for index in Int64(5)..<10 {
            let second = Self.start + index
            pairing.record(pulse(second + 10))
            if let sample = pairing.epoch(second: second, usable: true, arrival: pulse(second + 10).time.unixSeconds + 0.1) { sent.append(sample) }
        }
        #expect(pairing.counts.disagreed == 1)
        #expect(sent.count == 4 + 4)
        #expect(sent.last.map { $0.pulse.seconds - $0.second } == 10)
    }

    @Test("With the rule 'before', the epoch before a pulse names its second")
    func before() {
        var pairing = PulsePairing(rule: .before)
        var sent: [PulseSample] = []
        for index in Int64(0)..<10 {
            let second = Self.start + index
            // The receiver announces second S at 0.6 s into S - 1, then pulses at S.
            if let sample = pairing.epoch(second: second, usable: true, arrival: pulse(second - 1).time.unixSeconds + 0.6) { sent.append(sample) }
            pairing.record(pulse(second))
        }
        #expect(sent.count == 8)
        #expect(sent.allSatisfy { $0.second == $0.pulse.seconds })
        #expect(pairing.counts.rejected == 0)
    }

    @Test("A pulse's chrony datagram carries system minus true time from the edge's microsecond; SOCK's magic")
    func datagram() {
        let sample = PulseSample(second: Self.start, pulse: WallTime(seconds: Self.start, nanoseconds: 250_400), arrival: 0)
        let bytes = ChronySocket.datagram(sample)
        #expect(bytes.count == 40)
        let seconds = bytes[0..<8].enumerated().reduce(0) { $0 | Int64($1.element) << (8 * Int64($1.offset)) }
        let microseconds = bytes[8..<16].enumerated().reduce(0) { $0 | Int64($1.element) << (8 * Int64($1.offset)) }
        let offset = bytes[16..<24].withUnsafeBytes { $0.loadUnaligned(as: Double.self) }
        let pulseFlag = bytes[24..<28].withUnsafeBytes { $0.loadUnaligned(as: Int32.self) }
        #expect(seconds == Self.start && microseconds == 250)
        #expect(offset == 0.00025)
        #expect(pulseFlag == 1)
    }
}
