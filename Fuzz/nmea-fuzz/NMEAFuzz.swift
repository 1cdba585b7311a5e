// The fuzz target over the whole engine and its formatters (`make fuzz`), and, built without
// the fuzzer, a runner for the reproducers it leaves: `nmea-fuzz crash-…` says what broke.
import EngineCheck
import Glibc

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
            guard let bytes = readAll(path) else {
                print("nmea-fuzz: \(path): cannot be read")
                exit(1)
            }
            let violations = EngineCheck.run(bytes)
            print("\(path): \(violations.isEmpty ? "ok" : violations.joined(separator: "; "))")
            failed = failed || !violations.isEmpty
        }
        exit(failed ? 1 : 0)
    }

    static func readAll(_ path: String) -> [UInt8]? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&chunk, 1, chunk.count, f)
            if n <= 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }
}
#endif
