// swift-tools-version: 6.2
// An app built on gpsfix's library products as any app would be: by path, through public API
// only (no @testable, no package access). `make test` builds it, runs its tests and runs the
// README's example (Sources/ReadmeExample, which ExampleAppTests holds equal to the README).
import PackageDescription

let gpsfix = "gpsfix"
let package = Package(
    name: "FixApp",
    dependencies: [.package(name: gpsfix, path: "../..")],
    targets: [
        // The five jobs (replay, read a receiver, serve gpsd's protocol, parse bytes, publish
        // to MQTT) and a piece of app logic (Odometer) that its tests drive with a script.
        .target(name: "FixApp", dependencies: [
            .product(name: "NMEA", package: gpsfix),
            .product(name: "GPSLocation", package: gpsfix),
            .product(name: "GPSSources", package: gpsfix),
            .product(name: "GPSServer", package: gpsfix),
            .product(name: "GPSMQTT", package: gpsfix),
        ]),
        .executableTarget(name: "fixapp", dependencies: ["FixApp"]),
        .executableTarget(name: "ReadmeExample", dependencies: [
            .product(name: "NMEA", package: gpsfix),
            .product(name: "GPSLocation", package: gpsfix),
            .product(name: "GPSSources", package: gpsfix),
        ]),
        .testTarget(name: "FixAppTests", dependencies: [
            "FixApp",
            .product(name: "GPSLocationTesting", package: gpsfix),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
