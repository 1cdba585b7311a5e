// swift-tools-version: 6.2
// The probe behind Tools/probe/streams.sh: a consumer of LocationService's streams, built from
// the library products alone as an app would, for the figures issue 18 asks of them (memory
// of a slow consumer, how soon a cancelled or abandoned loop stops its source).
import PackageDescription

let package = Package(
    name: "stream-consumer",
    dependencies: [.package(name: "gpsfix", path: "../../..")],
    targets: [
        .executableTarget(name: "stream-consumer", dependencies: [
            .product(name: "GPSSources", package: "gpsfix"),
            .product(name: "GPSLocation", package: "gpsfix"),
            .product(name: "NMEA", package: "gpsfix"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
