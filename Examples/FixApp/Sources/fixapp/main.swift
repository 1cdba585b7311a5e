import FixApp
import Foundation
import GPSLocation
import GPSServer
import GPSSources

// fixapp: the five jobs of Jobs from the command line.
//   fixapp replay CAPTURE        positions in a capture, and the trip's length
//   fixapp parse FILE            the fixes in a file's bytes, parsed without a source
//   fixapp read TTY              the first fix from a receiver
//   fixapp serve CAPTURE PORT    gpsd's protocol on 127.0.0.1:PORT, the capture looping
//   fixapp publish CAPTURE URL   the capture's reports to an MQTT broker
let arguments = Array(CommandLine.arguments.dropFirst())
func usage() -> Never {
    FileHandle.standardError.write(Data("usage: fixapp replay CAPTURE | parse FILE | read TTY | serve CAPTURE PORT | publish CAPTURE URL\n".utf8))
    exit(64)
}
guard let job = arguments.first else { usage() }
do {
    switch (job, arguments.count) {
    case ("replay", 2):
        var odometer = Odometer()
        for fix in try await Jobs.positions(inCapture: arguments[1]) { odometer.take(fix) }
        print("\(odometer.positions) positions, \(Int(odometer.meters)) m")
    case ("parse", 2):
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: arguments[1])))
        print("\(Jobs.fixes(parsing: bytes).count) fixes")
    case ("read", 2):
        print(try await Jobs.firstFix(onPort: arguments[1], timeout: .seconds(10)))
    case ("serve", 3):
        guard let port = Int(arguments[2]) else { usage() }
        try await Jobs.serve(ReplayManager(path: arguments[1], loop: true), on: ListenAddress(host: "127.0.0.1", port: port)) {
            print("serving on \($0)")
        }
    case ("publish", 3):
        try await Jobs.publish(ReplayManager(path: arguments[1]), to: arguments[2])
    default:
        usage()
    }
} catch let error as LocationError {
    // A library error states what happened; its localizedDescription is that message.
    FileHandle.standardError.write(Data("fixapp: \(error.localizedDescription)\n".utf8))
    exit(1)
} catch {
    FileHandle.standardError.write(Data("fixapp: \(error)\n".utf8))
    exit(1)
}
