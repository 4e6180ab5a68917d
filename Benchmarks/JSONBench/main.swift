// SPDX-License-Identifier: GPL-2.0-or-later
// 100,000 `scan --json` report lines: written with BeaconJSON (SightingObject) and read back
// with BeaconJSON (TraceSample, what `locate --trace` does), against the reading `locate --trace`
// did before BeaconJSON (Foundation's JSONSerialization and NSNumber lookups). Built and run by
// json-bench.sh (BENCHMARKS.md, "JSON lines").
import BeaconCodec
import BeaconJSON
import Foundation

let count = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 100_000
let uuid = BeaconUUID("25795A1D-C318-47F0-A49D-7A2D1D58C79E")!
let address = BluetoothAddress("CB:81:10:5A:63:1F")!
// Nine iBeacons in ten, as a room of iBeacons with one Eddystone-UID.
let sightings: [SightingObject] = (0..<count).map { i in
    let beacon: AnyBeacon = i % 10 == 9
        ? .eddystoneUID(EddystoneUID(namespace: EddystoneNamespace(high: 0x8B0CA750_E7A74E14, low: 0xBD99), instance: EddystoneInstance(UInt64(i % 4)), txPower: -18))
        : .iBeacon(IBeacon(uuid: uuid, major: 1, minor: UInt16(i % 4), measuredPower: -59))
    return SightingObject(time: Double(i) / 1000, beacon: beacon, rssi: Int8(-50 - i % 30), address: address, addressType: 1, extended: true)
}

func timed<T>(_ label: String, _ body: () throws -> T) rethrows -> T {
    let clock = ContinuousClock()
    var result: T? = nil
    let elapsed = try clock.measure { result = try body() }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    print(String(format: "%-44@ %8.1f ms  %6.2f µs/line  %9.0f lines/s", label as NSString, seconds * 1000, seconds * 1e6 / Double(count), Double(count) / seconds))
    return result!
}

let lines = timed("encode: SightingObject.json.text") { sightings.map { $0.json.text } }
let bytes = lines.reduce(0) { $0 + $1.utf8.count + 1 }
print("(\(count) lines, \(bytes / 1024) KiB)")

let samples = try timed("decode: TraceSample(line:) (BeaconJSON)") { try lines.compactMap { try TraceSample(line: $0) } }
precondition(samples.count == count && samples[3].rssi == -53, "decoded \(samples.count)")

// Before BeaconJSON: LocateInput.sample, the iBeacon path and the other formats' key lookups.
let before = timed("decode: JSONSerialization (before)") { () -> Int in
    var n = 0
    for line in lines {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { fatalError(line) }
        if let event = object["event"] as? String, event != "report" { continue }
        func int(_ k: String) -> Int? { (object[k] as? NSNumber)?.intValue }
        guard let time = (object["time"] as? NSNumber)?.doubleValue, let rssi = (object["rssi"] as? NSNumber)?.doubleValue,
              time.isFinite, rssi.isFinite else { fatalError(line) }
        if let format = object["format"] as? String, format != "ibeacon" {
            guard (object["namespace"] as? String).flatMap({ EddystoneNamespace($0) }) != nil,
                  (object["instance"] as? String).flatMap({ EddystoneInstance($0) }) != nil, int("power_at_0m") != nil else { fatalError(line) }
        } else {
            guard let text = object["uuid"] as? String, BeaconUUID(text) != nil, let major = int("major"), let minor = int("minor"),
                  (0...0xFFFF).contains(major), (0...0xFFFF).contains(minor) else { fatalError(line) }
        }
        n += 1
    }
    return n
}
precondition(before == count)

// decode --capture's part: a beacon's members appended as bytes to a line buffer.
var buffer: [UInt8] = []
buffer.reserveCapacity(1 << 17)
let written = timed("write: BeaconObject.write (decode --capture)") { () -> Int in
    var total = 0
    for s in sightings {
        BeaconObject.write(s.beacon, naming: .profile, to: &buffer)
        total += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }
    return total
}
precondition(written > 0)

// Before BeaconJSON, decode --capture wrote an iBeacon's members by hand (its own fast path,
// a second definition of them); the same bytes, for comparison.
let handWritten = timed("write: by hand, iBeacon only (before)") { () -> Int in
    var total = 0
    for s in sightings {
        guard case .iBeacon(let b) = s.beacon else {
            BeaconObject.write(s.beacon, naming: .profile, to: &buffer)
            total += buffer.count
            buffer.removeAll(keepingCapacity: true)
            continue
        }
        buffer.append(contentsOf: #""uuid":""#.utf8)
        b.uuid.appendText(to: &buffer)
        buffer.append(contentsOf: #"","major":"#.utf8)
        buffer.append(contentsOf: String(b.major).utf8)
        buffer.append(contentsOf: #","minor":"#.utf8)
        buffer.append(contentsOf: String(b.minor).utf8)
        buffer.append(contentsOf: #","power":"#.utf8)
        buffer.append(contentsOf: String(b.measuredPower).utf8)
        total += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }
    return total
}
precondition(handWritten > 0)
