// swift-tools-version: 6.0
import PackageDescription

// Dependencies point one way: NMEA (pure) ← GPSLocation ← GPSSources / GPSOutput ← GPSFixCLI ← gpsfix.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "gpsfix",
    products: [
        .executable(name: "gpsfix", targets: ["gpsfix"]),
        .library(name: "NMEA", targets: ["NMEA"]),
        .library(name: "GPSLocation", targets: ["GPSLocation"]),
        .library(name: "GPSSources", targets: ["GPSSources"]),
        .library(name: "GPSOutput", targets: ["GPSOutput"]),
    ],
    targets: [
        .target(name: "NMEA", swiftSettings: strict),
        .target(name: "GPSLocation", dependencies: ["NMEA"], swiftSettings: strict),
        .target(name: "GPSSources", dependencies: ["GPSLocation"], swiftSettings: strict),
        .target(name: "GPSOutput", dependencies: ["GPSLocation"], swiftSettings: strict),
        .target(name: "GPSFixCLI", dependencies: ["GPSLocation", "GPSSources", "GPSOutput"], swiftSettings: strict),
        .executableTarget(name: "gpsfix", dependencies: ["GPSFixCLI"], swiftSettings: strict),
        .executableTarget(name: "nmea-bench", dependencies: ["NMEA", "GPSOutput"], path: "Benchmarks/nmea-bench", swiftSettings: strict),
        // Deadline-bound waiting for the tests of threaded code (not shipped).
        .target(name: "AsyncTestSupport", path: "Tests/AsyncTestSupport", swiftSettings: strict),
        .testTarget(name: "NMEATests", dependencies: ["NMEA"], swiftSettings: strict),
        .testTarget(name: "GPSLocationTests", dependencies: ["GPSLocation", "AsyncTestSupport"], swiftSettings: strict),
        .testTarget(name: "GPSSourcesTests", dependencies: ["GPSSources", "AsyncTestSupport"], swiftSettings: strict),
        .testTarget(name: "GPSOutputTests", dependencies: ["GPSOutput"], swiftSettings: strict),
        .testTarget(name: "GPSFixCLITests", dependencies: ["GPSFixCLI"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
