// swift-tools-version: 6.2
// An app that replays a capture with gpsfix's library and prints each fix: what an app that
// only reads receivers, replays or the network builds from. It depends on GPSSources alone,
// so it links neither libgps nor libmosquitto (`make check-links` holds it to that).
import PackageDescription

let package = Package(
    name: "ReplayFixes",
    dependencies: [.package(name: "gpsfix", path: "../..")],
    targets: [
        .executableTarget(name: "ReplayFixes", dependencies: [
            .product(name: "GPSSources", package: "gpsfix"),
            .product(name: "GPSLocation", package: "gpsfix"),
            .product(name: "NMEA", package: "gpsfix"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
