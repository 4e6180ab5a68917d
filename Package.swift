// swift-tools-version:6.1
// beacon — turn a Linux box into one or many iBeacons.
// SPDX-License-Identifier: GPL-2.0-or-later
import PackageDescription

/// Our own targets build in Swift 6 language mode with strict concurrency; warnings are treated as
/// a defect (scripts/test fails on warnings in our own modules).
let package = Package(
    name: "beacon",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "BeaconCodec", targets: ["BeaconCodec"]),
        .library(name: "TextLayout", targets: ["TextLayout"]),
        .library(name: "BeaconSystem", targets: ["BeaconSystem"]),
        .library(name: "BeaconRadio", targets: ["BeaconRadio"]),
        .library(name: "BeaconJSON", targets: ["BeaconJSON"]),
        .library(name: "BeaconProfiles", targets: ["BeaconProfiles"]),
        .library(name: "HCI", targets: ["HCI"]),
        .library(name: "Mgmt", targets: ["Mgmt"]),
        .library(name: "HCITransport", targets: ["HCITransport"]),
        .library(name: "BeaconAdapters", targets: ["BeaconAdapters"]),
        .library(name: "BeaconEmulator", targets: ["BeaconEmulator"]),
        .library(name: "VirtualController", targets: ["VirtualController"]),
        .library(name: "BeaconScanner", targets: ["BeaconScanner"]),
        .library(name: "LiveView", targets: ["LiveView"]),
        .library(name: "BeaconConsole", targets: ["BeaconConsole"]),
        .library(name: "BeaconMaps", targets: ["BeaconMaps"]),
        .library(name: "BeaconMQTT", targets: ["BeaconMQTT"]),
        .library(name: "BeaconWeb", targets: ["BeaconWeb"]),
        .library(name: "BeaconSite", targets: ["BeaconSite"]),
        .executable(name: "beacon", targets: ["beacon"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        // `swift package generate-documentation` (DocC) for the library products; build-time only.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // The live page's HTTP and WebSocket server (`--web`): NIO's HTTP/1 parser and WebSocket
        // codec, with bounds on what a peer sends (README: "The live page").
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        // The shared iBeacon payload codec: no dependencies, no Foundation, no I/O.
        .target(name: "BeaconCodec"),
        // Text for people: numbers and durations (`NumberText`), plurals, aligned tables, lines broken
        // to a width. Pure Swift, no Foundation; every front end and library that words things.
        .target(name: "TextLayout", dependencies: ["BeaconCodec"]),
        // The one system-call seam (`SystemCalls`: descriptors, files, terminals, clocks; EINTR
        // retried once for all; typed `Errno`) and the safe output files built on it. No Foundation.
        .target(name: "BeaconSystem", dependencies: ["BeaconCodec"]),
        // Radio models on top of the codec: log-distance path loss and the virtual air's channel
        // (shadowing, fading, loss, collisions). Apart from BeaconCodec, which stays pure Swift.
        .target(name: "BeaconRadio", dependencies: ["BeaconCodec"]),
        // The JSON every command prints and reads (beacons, sightings, events), defined once, and
        // a small reader; like the codec: no Foundation, no I/O. Schemas in docs/schema/.
        .target(name: "BeaconJSON", dependencies: ["BeaconCodec"]),
        // Profile files (YAML/JSON) → validated beacons.
        .target(
            name: "BeaconProfiles",
            dependencies: ["TextLayout", "BeaconRadio", "BeaconCodec", "BeaconJSON", "BeaconSystem", "HCI", .product(name: "Yams", package: "Yams")]
        ),
        // HCI packets (one spec command per file) and H4 framing.
        .target(name: "HCI", dependencies: ["BeaconCodec"]),
        // The kernel's Bluetooth management API (BlueZ doc/mgmt-api.txt): typed commands and events.
        // Reuses HCI's little-endian reader/writer and validation errors; no I/O.
        .target(name: "Mgmt", dependencies: ["HCI", "BeaconCodec"]),
        // BlueZ's libbluetooth and the kernel HCI socket ioctls; only HCITransport sees it.
        // pkgConfig names libbluetooth-dev's bluez.pc: without it SwiftPM never checks for the
        // package, so its "apt-get install libbluetooth-dev" hint never shows. scripts/beacon and
        // scripts/setup install the package themselves.
        .systemLibrary(name: "CBlueZ", pkgConfig: "bluez", providers: [.apt(["libbluetooth-dev"])]),
        // Real controllers as users own them (issue 36): the catalogue of models, each fact cited,
        // and their quirks; the virtual controller imitates them, doctor recognises them. No I/O.
        .target(name: "KnownControllers", dependencies: ["HCI"]),
        // Transports (kernel socket, user channel, H4 over TCP/UART) and the controller session.
        .target(name: "HCITransport", dependencies: ["HCI", "Mgmt", "BeaconCodec", "BeaconSystem", "CBlueZ", .product(name: "Logging", package: "swift-log")]),
        // The built-in virtual LE controller: strict spec rules and an air log.
        .target(name: "VirtualController", dependencies: ["BeaconRadio", "HCI", "KnownControllers", "HCITransport", "BeaconCodec", "BeaconSystem"]),
        // Controller access in one place: opening any adapter spec, probing it into capabilities,
        // taking its advertising off the air (`stop`), and the host facts `doctor` prints.
        .target(name: "BeaconAdapters", dependencies: ["BeaconRadio", "BeaconCodec", "BeaconSystem", "HCI", "Mgmt", "HCITransport", "KnownControllers", "VirtualController"]),
        // Plans a fleet and owns it while it runs: extended sets, rotation, several adapters.
        .target(
            name: "BeaconEmulator",
            dependencies: ["TextLayout", "BeaconRadio", "BeaconCodec", "BeaconJSON", "BeaconProfiles", "BeaconSystem", "HCI", "Mgmt", "HCITransport", "BeaconAdapters", "KnownControllers", "VirtualController"]
        ),
        // Scanning like a phone: reports → iBeacons, ranging, region monitoring.
        .target(name: "BeaconScanner", dependencies: ["TextLayout", "BeaconRadio", "BeaconCodec", "BeaconJSON", "BeaconProfiles", "HCI", "HCITransport", "BeaconAdapters"]),
        // Capture files (btsnoop, pcap, pcapng) → the iBeacons heard and sent, streaming.
        .target(name: "BeaconCapture", dependencies: ["TextLayout", "BeaconCodec", "BeaconJSON", "BeaconSystem", "HCI"]),
        // Indoor positioning: ranged distances to beacons of known position → where the receiver is.
        .target(name: "BeaconPositioning", dependencies: ["TextLayout", "BeaconRadio", "BeaconCodec", "BeaconJSON", "BeaconProfiles"]),
        // Scenario playback and the over-the-air walk: drive a running fleet on a clock. Knows no
        // site: a stage (`ScenarioStage`) is what a step's beacons go to; BeaconSite implements one.
        .target(name: "BeaconScenarios", dependencies: ["TextLayout", "BeaconRadio", "BeaconCodec", "BeaconJSON", "BeaconProfiles", "BeaconScanner", "BeaconPositioning", "BeaconEmulator", "BeaconAdapters", "VirtualController", "HCI"]),
        // Maps as SVG (and a self-contained HTML page): walls, beacons, ranging circles, estimates,
        // routes, labels that never overlap. Pure Swift: text out, no I/O.
        .target(name: "BeaconMaps", dependencies: ["BeaconRadio", "BeaconPositioning", "BeaconProfiles"]),
        // A live view that fits the terminal: the layout (pure) and a thin terminal layer.
        .target(name: "LiveView", dependencies: ["BeaconSystem"]),
        // A running fleet on a terminal (the live view), as log lines or as JSON Lines: the
        // board `advertise`, `cycle`, `play` and `walk` show (with a scenario's or a walk's
        // progress), and a site's live view, for any program.
        .target(name: "BeaconConsole", dependencies: ["TextLayout", "BeaconCodec", "BeaconRadio", "BeaconJSON", "BeaconProfiles", "HCI", "BeaconAdapters", "BeaconEmulator", "BeaconScenarios", "BeaconSite", "LiveView"]),
        // Eclipse Mosquitto's client library (libmosquitto-dev's libmosquitto.pc); only BeaconMQTT
        // sees it. scripts/setup installs the package, as it installs libbluetooth-dev.
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // An MQTT client (3.1.1 and 5, TLS, Last Will, reconnect) over libmosquitto, for the site (#24).
        .target(name: "BeaconMQTT", dependencies: ["BeaconSystem", "CMosquitto"]),
        // A site (#24): many hosts and radios as one fleet through an MQTT broker: the site file,
        // placement, topics and payloads (Home Assistant discovery too), agent and controller;
        // a scenario played across it (the site as BeaconScenarios' stage).
        .target(name: "BeaconSite", dependencies: ["TextLayout", "BeaconRadio", "BeaconCodec", "BeaconJSON", "BeaconMaps", "BeaconProfiles", "BeaconAdapters", "BeaconSystem", "HCI", "HCITransport", "BeaconEmulator", "BeaconScenarios", "VirtualController", "BeaconMQTT", .product(name: "Yams", package: "Yams")]),
        // The live page (`--web`): a self-contained HTML page with the map and the live table,
        // kept current over a WebSocket; read-only, loopback unless told otherwise.
        .target(name: "BeaconWeb", dependencies: ["TextLayout", "LiveView", "BeaconCodec", "BeaconMaps", "BeaconPositioning", "BeaconRadio", "BeaconSite",
                                         .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                                         .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOWebSocket", package: "swift-nio")]),
        // The command line: parsing and presentation of every command, as a library the executable
        // wraps (so tests reach it without spawning); the decisions live in the libraries above.
        .target(
            name: "BeaconCommands",
            dependencies: ["TextLayout", "BeaconRadio", 
                "BeaconCodec", "BeaconJSON", "BeaconProfiles", "BeaconSystem", "HCI", "HCITransport", "BeaconAdapters", "BeaconEmulator", "KnownControllers", "VirtualController", "BeaconScanner", "BeaconCapture", "BeaconPositioning", "BeaconScenarios", "LiveView", "BeaconConsole", "BeaconMaps", "BeaconSite", "BeaconMQTT", "BeaconWeb",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The `beacon` executable: main.swift calls BeaconCommands.
        .executableTarget(name: "beacon", dependencies: ["BeaconCommands"]),
        // Test support: counts Swift heap allocations (see Tests/Support/AllocationCounting).
        .target(name: "AllocationCounting", path: "Tests/Support/AllocationCounting"),
        // Test support shared by the test targets: the package root, finding the built `beacon`
        // and tools on PATH, running a program to completion, a Mosquitto broker of its own on
        // loopback (see Tests/Support/TestSupport).
        .target(name: "TestSupport", path: "Tests/Support/TestSupport"),
        // Test support: a scripted misbehaving controller built on the virtual one, on loopback
        // TCP, for the failure paths.
        .target(name: "TestControllers", dependencies: ["BeaconSystem", "HCI", "HCITransport", "Mgmt", "VirtualController", "TestSupport"], path: "Tests/Support/TestControllers"),
        .testTarget(name: "TextLayoutTests", dependencies: ["TextLayout"]),
        .testTarget(
            name: "BeaconCodecTests",
            dependencies: ["BeaconCodec", "AllocationCounting", .product(name: "PropertyBased", package: "swift-property-based")],
            resources: [.copy("Vectors")]
        ),
        .testTarget(name: "BeaconCommandsTests", dependencies: ["BeaconCommands", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .testTarget(name: "BeaconJSONTests", dependencies: ["BeaconJSON", "BeaconCodec"]),
        .testTarget(name: "BeaconProfilesTests", dependencies: ["BeaconProfiles", "BeaconRadio", "BeaconCodec", "TestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "HCITests", dependencies: ["HCI", "BeaconCodec"]),
        .testTarget(name: "MgmtTests", dependencies: ["Mgmt", "HCI"]),
        .testTarget(name: "BeaconSystemTests", dependencies: ["BeaconSystem"]),
        .testTarget(name: "HCITransportTests", dependencies: ["BeaconSystem", "HCITransport", "HCI", "Mgmt", "TestSupport", "TestControllers"]),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["BeaconEmulator", "BeaconAdapters", "HCITransport", "HCI", "BeaconProfiles", "BeaconCodec", "TestSupport"]
        ),
        .testTarget(name: "BeaconAdaptersTests", dependencies: ["BeaconAdapters", "BeaconSystem", "HCI", "HCITransport", "Mgmt", "VirtualController"]),
        .testTarget(name: "BeaconEmulatorTests", dependencies: ["BeaconEmulator", "BeaconJSON", "BeaconAdapters", "BeaconProfiles", "HCI", "HCITransport", "Mgmt", "VirtualController", "BeaconCodec", "TestControllers"]),
        .testTarget(
            name: "VirtualControllerTests",
            dependencies: ["BeaconRadio", "VirtualController", "KnownControllers", "HCI", "HCITransport", "BeaconCodec", "BeaconSystem"]
        ),
        .testTarget(name: "BeaconScannerTests", dependencies: ["BeaconScanner", "BeaconJSON", "BeaconProfiles", "BeaconCodec", "HCI"]),
        .testTarget(name: "BeaconCaptureTests", dependencies: ["BeaconCapture", "BeaconCodec", "HCI", "HCITransport", "AllocationCounting", "TestSupport"]),
        .testTarget(name: "BeaconPositioningTests", dependencies: ["BeaconPositioning", "BeaconJSON", "BeaconRadio", "BeaconProfiles", "BeaconCodec", "TestSupport"]),
        .testTarget(name: "BeaconScenariosTests", dependencies: ["BeaconRadio", "BeaconCodec", "HCI", "BeaconScenarios", "BeaconProfiles", "BeaconScanner", "BeaconPositioning", "BeaconEmulator", "BeaconAdapters", "VirtualController", "TestSupport"]),
        .testTarget(name: "LiveViewTests", dependencies: ["LiveView", "BeaconSystem"]),
        .testTarget(name: "BeaconConsoleTests", dependencies: ["BeaconConsole", "BeaconScenarios", "BeaconEmulator", "BeaconAdapters", "BeaconProfiles", "BeaconCodec", "BeaconSite", "BeaconSystem", "LiveView"]),
        .testTarget(name: "BeaconMapsTests", dependencies: ["BeaconMaps", "BeaconRadio", "BeaconPositioning", "BeaconProfiles", "TestSupport"]),
        .testTarget(name: "BeaconMQTTTests", dependencies: ["BeaconMQTT", "TestSupport"]),
        .testTarget(name: "BeaconWebTests", dependencies: ["BeaconWeb", "LiveView", "BeaconMaps", "BeaconPositioning", "BeaconProfiles", "BeaconRadio", "BeaconSite", "BeaconEmulator", "TestSupport", .product(name: "NIOCore", package: "swift-nio")]),
        .testTarget(name: "BeaconSiteTests", dependencies: ["BeaconSite", "BeaconAdapters", "BeaconRadio", "BeaconCodec", "BeaconEmulator", "BeaconProfiles", "BeaconJSON", "BeaconMQTT", "TestSupport"]),
        .testTarget(name: "BeaconCLITests", dependencies: ["BeaconCodec", "BeaconProfiles", "HCI", "TestSupport", "TestControllers"]),
    ]
)
