// swift-tools-version: 6.2
// 6.2: the engine keeps fixed lists in InlineArray, with value generics (FixedList<let n>).
import PackageDescription

// Dependencies point one way: NMEA (pure), GPSSystem (syscalls) ← GPSLocation ← GPSSources / GPSOutput
// ← GPSGpsd / GPSServer / GPSMQTT ← GPSFixCLI ← gpsfix. Only GPSFixCLI knows the sources, to build the
// one named. The C libraries sit with the one module that needs each (libgps: GPSGpsd, libmosquitto:
// GPSMQTT), so an app that reads a receiver, a replay or the network links neither.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "gpsfix",
    products: [
        .executable(name: "gpsfix", targets: ["gpsfix"]),
        .library(name: "NMEA", targets: ["NMEA"]),
        .library(name: "GPSSystem", targets: ["GPSSystem"]),
        .library(name: "GPSLocation", targets: ["GPSLocation"]),
        .library(name: "GPSSources", targets: ["GPSSources"]),
        .library(name: "GPSGpsd", targets: ["GPSGpsd"]),
        .library(name: "GPSOutput", targets: ["GPSOutput"]),
        .library(name: "GPSServer", targets: ["GPSServer"]),
        .library(name: "GPSMQTT", targets: ["GPSMQTT"]),
        .library(name: "GPSTime", targets: ["GPSTime"]),
        .library(name: "GPSStats", targets: ["GPSStats"]),
        .library(name: "GPSLocationTesting", targets: ["GPSLocationTesting"]),
    ],
    targets: [
        .target(name: "NMEA", swiftSettings: strict),
        // The one layer that calls the system for everything above: errno, EINTR, wake-ups,
        // threads, clocks.
        // Linux's PPS ioctls, a serial port's modem-line waits (request numbers that are C
        // macros) and adjtimex's clock state: called from a header for GPSSystem alone.
        .systemLibrary(name: "CLinuxTiming", path: "Sources/CLinuxTiming"),
        .target(name: "GPSSystem", dependencies: ["CLinuxTiming"], swiftSettings: strict),
        .target(name: "GPSLocation", dependencies: ["NMEA", "GPSSystem"], swiftSettings: strict),
        .target(name: "GPSSources", dependencies: ["NMEA", "GPSLocation", "GPSSystem"], swiftSettings: strict),
        // For apps' tests: a manager that plays a script (fixes, statuses, failures, pauses, an
        // end) with call counts, in place of a receiver.
        .target(name: "GPSLocationTesting", dependencies: ["NMEA", "GPSLocation", "GPSSystem"], swiftSettings: strict),
        // libgps (Debian libgps-dev, API 11 to 16): compiled against the installed gps.h, it copies
        // what gpsfix reads into records of its own, so every libgps release's differences are in
        // its one C file and Swift never sees gps_data_t.
        .target(name: "CGPS", linkerSettings: [.linkedLibrary("gps")]),
        // gpsd as a source: gpsfix's own socket and checks, libgps's decoding.
        .target(name: "GPSGpsd", dependencies: ["NMEA", "GPSLocation", "GPSSources", "GPSSystem", "CGPS"], swiftSettings: strict),
        .target(name: "GPSOutput", dependencies: ["NMEA", "GPSLocation", "GPSSystem"], swiftSettings: strict),
        // gpsd's JSON protocol, served to gpsd's clients from any source.
        // Its web page's files are built in as Swift text (Tools/web/embed.py), not as resources.
        .target(name: "GPSServer", dependencies: ["NMEA", "GPSLocation", "GPSOutput", "GPSSystem"], exclude: ["HTTP/Page"], swiftSettings: strict),
        // libmosquitto, for MQTT publishing and the MQTT source (Debian libmosquitto-dev).
        .systemLibrary(name: "CMosquitto", path: "Sources/CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // MQTT both ways: gpsd JSON published to a broker, and a source read back from one. A
        // module of its own so that GPSSources (and every app using a serial receiver) does not
        // link libmosquitto.
        .target(name: "GPSMQTT", dependencies: ["NMEA", "GPSLocation", "GPSSources", "GPSOutput", "GPSSystem", "CMosquitto"], swiftSettings: strict),
        // Time for an NTP server (chrony's SOCK refclock, the NTP shared memory segment); the
        // C records' layout from a header, and the segment's counted store, which needs volatile.
        .systemLibrary(name: "CTimeSamples", path: "Sources/CTimeSamples"),
        .target(name: "GPSTime", dependencies: ["NMEA", "GPSLocation", "GPSSources", "GPSSystem", "CTimeSamples"], swiftSettings: strict),
        // A run's figures: the scatter of its fixes (CEP, 2DRMS), its fix availability, update
        // interval and sky; pure, as the engine.
        .target(name: "GPSStats", dependencies: ["NMEA"], swiftSettings: strict),
        .target(name: "GPSFixCLI", dependencies: ["NMEA", "GPSLocation", "GPSSources", "GPSGpsd", "GPSOutput", "GPSServer", "GPSSystem", "GPSMQTT", "GPSTime", "GPSStats"], swiftSettings: strict),
        .executableTarget(name: "gpsfix", dependencies: ["GPSFixCLI"], swiftSettings: strict),
        .executableTarget(name: "nmea-bench", dependencies: ["NMEA", "GPSLocation", "GPSOutput"], path: "Benchmarks/nmea-bench", swiftSettings: strict),
        // The engine and its formatters on hostile input, with every output checked: the body of
        // the fuzz target (`make fuzz`) and of the crash regression tests.
        .target(name: "EngineCheck", dependencies: ["NMEA", "GPSLocation", "GPSOutput"], path: "Fuzz/EngineCheck", swiftSettings: strict),
        .executableTarget(name: "nmea-fuzz", dependencies: ["EngineCheck", "GPSLocation"], path: "Fuzz/nmea-fuzz", swiftSettings: strict),
        // What a gpsd peer sends, through the gpsd source's checks and the installed libgps
        // (`make fuzz-gpsd`): a line that made libgps loop would be a time-out, and a finding.
        .executableTarget(name: "gpsd-fuzz", dependencies: ["GPSGpsd", "GPSLocation"], path: "Fuzz/gpsd-fuzz", swiftSettings: strict),
        // What several test targets share: deadline-bound waiting, temporary directories, a
        // stream collected whole.
        .target(name: "GPSTestSupport", dependencies: ["NMEA", "GPSLocation", "GPSSystem"], path: "Tests/GPSTestSupport", swiftSettings: strict),
        .testTarget(name: "NMEATests", dependencies: ["NMEA", "GPSTestSupport"], swiftSettings: strict),
        .testTarget(name: "GPSSystemTests", dependencies: ["GPSSystem", "GPSTestSupport"], swiftSettings: strict),
        .testTarget(name: "HostileInputTests", dependencies: ["EngineCheck", "NMEA", "GPSLocation", "GPSOutput"], swiftSettings: strict),
        .testTarget(name: "GPSLocationTests", dependencies: ["NMEA", "GPSLocation", "GPSTestSupport"], swiftSettings: strict),
        .testTarget(name: "GPSLocationTestingTests", dependencies: ["NMEA", "GPSLocation", "GPSLocationTesting", "GPSSources", "GPSSystem", "GPSTestSupport"], swiftSettings: strict),
        .testTarget(name: "GPSSourcesTests", dependencies: ["NMEA", "GPSSources", "GPSGpsd", "CGPS", "GPSSystem", "GPSTestSupport"], swiftSettings: strict),
        .testTarget(name: "GPSOutputTests", dependencies: ["NMEA", "GPSOutput"], swiftSettings: strict),
        .testTarget(name: "GPSServerTests", dependencies: ["NMEA", "GPSServer", "GPSTestSupport"], swiftSettings: strict),
        .testTarget(name: "GPSFixCLITests", dependencies: ["NMEA", "GPSFixCLI", "GPSLocation", "GPSSources", "GPSGpsd", "GPSSystem", "GPSTestSupport"], swiftSettings: strict),
        .testTarget(name: "GPSTimeTests", dependencies: ["NMEA", "GPSTime", "GPSSystem", "GPSTestSupport"], swiftSettings: strict),
        .testTarget(name: "GPSStatsTests", dependencies: ["NMEA", "GPSStats"], swiftSettings: strict),
        .testTarget(name: "GPSMQTTTests", dependencies: ["NMEA", "GPSMQTT", "GPSLocation", "GPSOutput", "GPSTestSupport"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
