// The fuzz target over the gpsd source's line handling and the installed libgps
// (`make fuzz-gpsd`), and, built without the fuzzer, a runner for the reproducers it leaves.
import GPSGpsd
import Glibc
import GPSLocation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let broken = GpsdLineCheck.run(UnsafeRawBufferPointer(start: data, count: size))
    if let first = broken.first { fatalError("invariant broken: \(first)") }
    return 0
}

#if !FUZZING
@main
struct ReproducerRunner {
    static func main() {
        var failed = false
        for path in CommandLine.arguments.dropFirst() {
            guard let bytes = try? readWholeFile(path) else {
                print("gpsd-fuzz: cannot read \(path)")
                exit(1)
            }
            let broken = bytes.withUnsafeBytes { GpsdLineCheck.run($0) }
            print("\(path): \(broken.isEmpty ? "ok" : broken.joined(separator: "; "))")
            failed = failed || !broken.isEmpty
        }
        exit(failed ? 1 : 0)
    }
}
#endif
