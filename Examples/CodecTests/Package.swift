// swift-tools-version:6.1
// SPDX-License-Identifier: GPL-2.0-or-later
// An example of a user's own package that tests its beacon packets with beacon's codec only.
// BeaconCodec needs no Foundation, no Glibc and no BlueZ: this package builds and tests on a
// machine without libbluetooth-dev (a Mac, a CI runner), although beacon's other targets need it.
import PackageDescription

let package = Package(
    name: "CodecTests",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "beacon", path: "../..")],
    targets: [
        .target(name: "AssetTags", dependencies: [.product(name: "BeaconCodec", package: "beacon")]),
        .testTarget(name: "AssetTagsTests", dependencies: ["AssetTags", .product(name: "BeaconCodec", package: "beacon")]),
    ]
)
