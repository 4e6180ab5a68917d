// swift-tools-version:6.1
// SPDX-License-Identifier: GPL-2.0-or-later
// An example of using beacon as a library: advertise the beacons of a profile from code.
import PackageDescription

let package = Package(
    name: "AdvertiseFleet",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "beacon", path: "../..")],
    targets: [
        .executableTarget(
            name: "AdvertiseFleet",
            dependencies: [
                .product(name: "BeaconProfiles", package: "beacon"),
                .product(name: "BeaconEmulator", package: "beacon"),
            ]
        ),
    ]
)
