// swift-tools-version: 6.0
import PackageDescription

// Dependencies point one way: NMEA (pure), GPSSystem (syscalls) ← GPSLocation ← GPSSources / GPSOutput
// ← GPSServer / GPSMQTT ← GPSFixCLI ← gpsfix. Only GPSFixCLI knows the sources, to build the one named.
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
        .library(name: "GPSOutput", targets: ["GPSOutput"]),
        .library(name: "GPSServer", targets: ["GPSServer"]),
        .library(name: "GPSMQTT", targets: ["GPSMQTT"]),
        .library(name: "GPSTime", targets: ["GPSTime"]),
    ],
    targets: [
        .target(name: "NMEA", swiftSettings: strict),
        // The one layer that calls the system for everything above: errno, EINTR, wake-ups,
        // threads, clocks.
        .target(name: "GPSSystem", swiftSettings: strict),
        .target(name: "GPSLocation", dependencies: ["NMEA", "GPSSystem"], swiftSettings: strict),
        // libgps, for GpsdManager (Debian libgps-dev).
        .systemLibrary(name: "CGPS", path: "Sources/CGPS", pkgConfig: "libgps", providers: [.apt(["libgps-dev"])]),
        .target(name: "GPSSources", dependencies: ["NMEA", "GPSLocation", "GPSSystem", "CGPS"], swiftSettings: strict),
        .target(name: "GPSOutput", dependencies: ["NMEA", "GPSLocation"], swiftSettings: strict),
        // gpsd's JSON protocol, served to gpsd's clients from any source.
        .target(name: "GPSServer", dependencies: ["GPSLocation", "GPSOutput", "GPSSystem"], swiftSettings: strict),
        // libmosquitto, for MQTT publishing and the MQTT source (Debian libmosquitto-dev).
        .systemLibrary(name: "CMosquitto", path: "Sources/CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // MQTT both ways: gpsd JSON published to a broker, and a source read back from one. A
        // module of its own so that GPSSources (and every app using a serial receiver) does not
        // link libmosquitto.
        .target(name: "GPSMQTT", dependencies: ["NMEA", "GPSLocation", "GPSOutput", "GPSSystem", "CMosquitto"], swiftSettings: strict),
        // Time for an NTP server (chrony's SOCK refclock, the NTP shared memory segment); the
        // C records' layout from a header, and the segment's counted store, which needs volatile.
        .systemLibrary(name: "CTimeSamples", path: "Sources/CTimeSamples"),
        .target(name: "GPSTime", dependencies: ["NMEA", "GPSSystem", "CTimeSamples"], swiftSettings: strict),
        .target(name: "GPSFixCLI", dependencies: ["NMEA", "GPSLocation", "GPSSources", "GPSOutput", "GPSServer", "GPSSystem", "GPSMQTT", "GPSTime"], swiftSettings: strict),
        .executableTarget(name: "gpsfix", dependencies: ["GPSFixCLI"], swiftSettings: strict),
        .executableTarget(name: "nmea-bench", dependencies: ["NMEA", "GPSLocation", "GPSOutput"], path: "Benchmarks/nmea-bench", swiftSettings: strict),
        // The engine and its formatters on hostile input, with every output checked: the body of
        // the fuzz target (`make fuzz`) and of the crash regression tests.
        .target(name: "EngineCheck", dependencies: ["NMEA", "GPSLocation", "GPSOutput"], path: "Fuzz/EngineCheck", swiftSettings: strict),
        .executableTarget(name: "nmea-fuzz", dependencies: ["EngineCheck", "GPSLocation"], path: "Fuzz/nmea-fuzz", swiftSettings: strict),
        // What several test targets share: deadline-bound waiting, temporary directories.
        .target(name: "GPSTestSupport", path: "Tests/GPSTestSupport", swiftSettings: strict),
        .testTarget(name: "NMEATests", dependencies: ["NMEA", "GPSTestSupport"], swiftSettings: strict),
        .testTarget(name: "GPSSystemTests", dependencies: ["GPSSystem", "GPSTestSupport"], swiftSettings: strict),
        .testTarget(name: "HostileInputTests", dependencies: ["EngineCheck", "NMEA"], swiftSettings: strict),
        .testTarget(name: "GPSLocationTests", dependencies: ["NMEA", "GPSLocation", "GPSTestSupport"], swiftSettings: strict),
        .testTarget(name: "GPSSourcesTests", dependencies: ["NMEA", "GPSSources", "GPSSystem", "GPSTestSupport"], swiftSettings: strict),
        .testTarget(name: "GPSOutputTests", dependencies: ["NMEA", "GPSOutput"], swiftSettings: strict),
        .testTarget(name: "GPSServerTests", dependencies: ["NMEA", "GPSServer", "GPSTestSupport"], swiftSettings: strict),
        .testTarget(name: "GPSFixCLITests", dependencies: ["NMEA", "GPSFixCLI", "GPSLocation", "GPSSources", "GPSSystem", "GPSTestSupport"], swiftSettings: strict),
        .testTarget(name: "GPSTimeTests", dependencies: ["NMEA", "GPSTime", "GPSSystem", "GPSTestSupport"], swiftSettings: strict),
        .testTarget(name: "GPSMQTTTests", dependencies: ["NMEA", "GPSMQTT", "GPSLocation", "GPSOutput", "GPSTestSupport"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
