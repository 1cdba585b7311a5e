// Measures the engine alone and the engine plus gpsd JSON on one input, in MB/s.
//
// Usage: nmea-bench FILE [REPEAT]
// The file is read once into memory and parsed REPEAT times (default 20), so the figure is
// the engine's, not the disk's. Kept beside the code so the README's figures can be re-made.
import Glibc
import GPSLocation
import GPSOutput
import NMEA

func seconds(_ body: () -> Void) -> Double {
    let start = ContinuousClock.now
    body()
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}

let args = CommandLine.arguments
guard args.count >= 2, let input = try? readWholeFile(args[1]) else {
    print("usage: nmea-bench FILE [REPEAT]")
    exit(64)
}
let repeats = args.count >= 3 ? Int(args[2]) ?? 20 : 20
var fixes = 0
let parseOnly = seconds {
    for _ in 0..<repeats {
        let parser = NMEAParser()
        input.withUnsafeBytes { raw in
            parser.parse(raw) { if case .fix = $0 { fixes += 1 } }
        }
        parser.finish { _ in }
    }
}
var out = ByteWriter(capacity: 1 << 20)
var written = 0
let tag = GPSDJSON.Device("bench")
let withJSON = seconds {
    for _ in 0..<repeats {
        let parser = NMEAParser()
        let emit: (EngineEvent) -> Void = { event in
            switch event {
            case .fix(let fix): GPSDJSON.tpv(fix, device: tag, into: &out)
            case .sky(let sky): GPSDJSON.sky(sky, device: tag, into: &out)
            case .note: break
            }
            if out.count > 1 << 19 {
                written += out.count
                out.removeAll()
            }
        }
        input.withUnsafeBytes { raw in parser.parse(raw, emit: emit) }
        parser.finish(emit: emit)
    }
}
let mb = Double(input.count * repeats) / 1e6
print("input: \(input.count) bytes x \(repeats), \(fixes / repeats) fixes per pass")
print("engine only:        \(Int(mb / parseOnly)) MB/s")
print("engine + gpsd JSON: \(Int(mb / withJSON)) MB/s (\(written / repeats) JSON bytes per pass)")
