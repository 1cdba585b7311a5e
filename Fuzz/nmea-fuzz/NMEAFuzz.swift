// The fuzz target over the whole engine and its formatters (`make fuzz`), and, built without
// the fuzzer, a runner for the reproducers it leaves: `nmea-fuzz crash-…` says what broke.
import EngineCheck
import Glibc
import GPSLocation

/// libFuzzer's entry: one input, any bytes. A broken invariant stops the run like a crash, so
/// the input is kept as a reproducer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let violations = EngineCheck.run(UnsafeRawBufferPointer(start: data, count: size))
    if let first = violations.first { fatalError("invariant broken: \(first)") }
    return 0
}

#if !FUZZING
/// Without libFuzzer (which brings its own `main`): run each file named, report, exit 1 on
/// any broken invariant.
@main
struct ReproducerRunner {
    static func main() {
        var failed = false
        for path in CommandLine.arguments.dropFirst() {
            let bytes: [UInt8]
            do {
                bytes = try readWholeFile(path)
            } catch {
                print("nmea-fuzz: \(error)")
                exit(1)
            }
            let violations = EngineCheck.run(bytes)
            print("\(path): \(violations.isEmpty ? "ok" : violations.joined(separator: "; "))")
            failed = failed || !violations.isEmpty
        }
        exit(failed ? 1 : 0)
    }
}
#endif
