// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCapture
import BeaconCodec
import BeaconPositioning
import Foundation

/// Where `beacon locate` gets its RSSI samples from.
enum LocateInput {
    struct TraceError: Error, CustomStringConvertible {
        var description: String
    }

    /// JSON Lines: `beacon scan --json` output (its "report" events, of every format) or plain
    /// `{"time","uuid","major","minor","rssi"[,"power"]}` lines. Lines of other events
    /// ("ranging", "enter", …) are skipped; a line that is not JSON is an error.
    /// `-` reads standard input to its end (`beacon scan --json | beacon locate FLEET --trace -`).
    static func traceSamples(path: String) throws -> [RSSISample] {
        if let problem = InputPath.problem(path) { throw TraceError(description: "\(InputPath.label(path)): \(problem)") }
        let data = path == "-" ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: path)
        guard let data, let text = String(data: data, encoding: .utf8) else {
            throw TraceError(description: "\(InputPath.label(path)): cannot read it as UTF-8 text")
        }
        var samples: [RSSISample] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            guard let object = try? JSONSerialization.jsonObject(with: Data(trimmed.utf8)) as? [String: Any] else {
                throw TraceError(description: "\(path.escapingControlCharacters):\(number + 1): not a JSON object")
            }
            if let event = object["event"] as? String, event != "report" { continue }
            // Other formats, as `scan --json` reports them ("format" and their own fields).
            if let format = object["format"] as? String, format != BeaconFormat.iBeacon.rawValue {
                if format == BeaconFormat.eddystoneTLM.rawValue { continue }  // no identity: not a sample
                guard let time = (object["time"] as? NSNumber)?.doubleValue, let rssi = (object["rssi"] as? NSNumber)?.doubleValue,
                      time.isFinite, rssi.isFinite, let (key, power) = BeaconFormatJSON.key(from: object) else {
                    throw TraceError(description: "\(path.escapingControlCharacters):\(number + 1): a \(format) sample needs time, rssi and the format's identity fields as scan --json prints them")
                }
                samples.append(RSSISample(time: time, key: key, rssi: rssi, measuredPower: power))
                continue
            }
            guard let time = (object["time"] as? NSNumber)?.doubleValue,
                  let uuidText = object["uuid"] as? String, let uuid = BeaconUUID(uuidText),
                  let major = (object["major"] as? NSNumber)?.intValue, let minor = (object["minor"] as? NSNumber)?.intValue,
                  (0...0xFFFF).contains(major), (0...0xFFFF).contains(minor),
                  let rssi = (object["rssi"] as? NSNumber)?.doubleValue,
                  time.isFinite, rssi.isFinite else {  // 1e999 reads as infinity
                throw TraceError(description: "\(path.escapingControlCharacters):\(number + 1): a sample needs time, uuid, major, minor and rssi (finite numbers; major and minor 0 to 65535)")
            }
            let power = (object["power"] as? NSNumber).flatMap { Int8(exactly: $0.intValue) }
            samples.append(RSSISample(time: time, key: .iBeacon(BeaconIdentity(uuid: uuid, major: UInt16(major), minor: UInt16(minor))),
                                      rssi: rssi, measuredPower: power))
        }
        return samples
    }

    /// The advertising reports of a capture (commands carry no RSSI), timed in seconds from the
    /// first report, as a trace from `beacon scan --json` is.
    static func captureSamples(path: String) throws -> [RSSISample] {
        var samples: [RSSISample] = []
        var first: CaptureTimestamp? = nil
        _ = try CaptureBeaconScan.forEachSighting(path: path) { sighting in
            guard sighting.source.isReport, let rssi = sighting.rssi, let key = sighting.beacon.key else { return }
            let start = first ?? sighting.timestamp
            first = start
            let time = (Double(sighting.timestamp.unixSeconds) - Double(start.unixSeconds))
                + Double(Int64(sighting.timestamp.nanosecondOfSecond) - Int64(start.nanosecondOfSecond)) / 1e9
            samples.append(RSSISample(time: time, key: key, rssi: Double(rssi), measuredPower: sighting.beacon.powerAt1m))
        }
        return samples
    }
}
