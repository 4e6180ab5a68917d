// swift-tools-version:6.1
// SPDX-License-Identifier: GPL-2.0-or-later
// An example of using beacon as a library: scan and range like a phone.
import PackageDescription

let package = Package(
    name: "ScanAndRange",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "beacon", path: "../..")],
    targets: [
        .executableTarget(
            name: "ScanAndRange",
            dependencies: [
                .product(name: "BeaconAdapters", package: "beacon"),
                .product(name: "BeaconEmulator", package: "beacon"),
                .product(name: "BeaconScanner", package: "beacon"),
            ]
        ),
    ]
)
