// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCapture
import BeaconCodec
import Testing

/// The text and JSON of captured beacons, formatted without a binary in between.
struct CapturedBeaconTextTests {
    static func sighting(_ timestamp: CaptureTimestamp, beacon: AnyBeacon = .iBeacon(IBeacon(uuid: testUUID, major: 1, minor: 2)),
                         address: BluetoothAddress? = BluetoothAddress(0xC0_11_22_33_44_55), rssi: Int8? = -61) -> CapturedBeacon {
        CapturedBeacon(timestamp: timestamp, source: .report, address: address, addressType: nil, rssi: rssi, handle: nil,
                       controllerIndex: 0, recordNumber: 1, beacon: beacon)
    }

    /// Formats with `body` and returns everything the sink was given.
    static func text(_ body: (inout CapturedBeaconText) -> Void) -> String {
        var bytes: [UInt8] = []
        var text = CapturedBeaconText { bytes.append(contentsOf: $0) }
        body(&text)
        text.flush()
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func anIBeaconRowLinesUpUnderTheHeader() {
        let out = Self.text {
            $0.append(CapturedBeaconText.tableHeader)
            $0.appendRow(Self.sighting(CaptureTimestamp(unixSeconds: 1_700_000_000, nanosecondOfSecond: 123_456_789)))
        }
        let lines = out.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[1] == "2023-11-14T22:13:20.123456Z  report           C0:11:22:33:44:55  -61   E2C56DB5-DFFB-48D2-B060-D0F5A71096E0  1      2      -59")
        // Each title starts where its value does.
        for (title, value) in [("SOURCE", "report"), ("ADDRESS", "C0:11"), ("RSSI", "-61"), ("UUID", "E2C5"), ("MAJOR", "1      2"), ("POWER", "-59")] {
            #expect(lines[0].range(of: title)?.lowerBound.utf16Offset(in: lines[0]) == lines[1].range(of: value)?.lowerBound.utf16Offset(in: lines[1]), "\(title)")
        }
    }

    @Test func otherFormatsShowTheirIdentityAndPowerAtZeroMetres() throws {
        let url = try EddystoneURL(url: "https://example.com", txPower: -20)
        let out = Self.text { $0.appendRow(Self.sighting(CaptureTimestamp(unixSeconds: 0, nanosecondOfSecond: 0), beacon: .eddystoneURL(url), address: nil, rssi: nil)) }
        #expect(out == "1970-01-01T00:00:00.000000Z  report           -                  -     eddystone-url https://example.com                   -20@0m\n")
    }

    @Test(arguments: [
        (CaptureTimestamp(btsnoopMicroseconds: .max), "18384575817709.551615", "(date out of range)        "),
        (CaptureTimestamp(unixSeconds: -2, nanosecondOfSecond: 500_000_000), "-1.500000", "1969-12-31T23:59:58.500000Z"),
        (CaptureTimestamp(unixSeconds: -1, nanosecondOfSecond: 500_000_000), "-0.500000", "1969-12-31T23:59:59.500000Z"),
        (CaptureTimestamp(unixSeconds: 10_413_792_000, nanosecondOfSecond: 1000), "10413792000.000001", "2300-01-01T00:00:00.000001Z"),
    ] as [(CaptureTimestamp, String, String)])
    func timestampsAreExactInJSONAndDatesStayInTheirColumn(time: CaptureTimestamp, seconds: String, date: String) {
        let json = Self.text { $0.appendJSON(Self.sighting(time)) }
        #expect(json == #"{"time":\#(seconds),"source":"report","address":"C0:11:22:33:44:55","rssi":-61,"format":"ibeacon","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":2,"power":-59}"# + "\n")
        let row = Self.text { $0.appendRow(Self.sighting(time)) }
        #expect(row.hasPrefix(date + "  report "), "\(row)")
    }

    @Test func fullBuffersGoToTheSinkInPiecesAndNothingIsLost() {
        var pieces = 0
        var total = 0
        var text = CapturedBeaconText { pieces += 1; total += $0.count }
        let row = Self.sighting(CaptureTimestamp(unixSeconds: 1, nanosecondOfSecond: 0))
        for _ in 0..<2000 { text.appendJSON(row) }
        let beforeFlush = pieces
        text.flush()
        #expect(beforeFlush >= 2, "a large output is handed over before the end")
        #expect(total == 2000 * Self.text { $0.appendJSON(row) }.utf8.count)
    }

    @Test func theSummarySaysWhatWasRead() {
        let summary = CaptureBeaconScan.Summary(format: .btsnoopHCI, records: 120, skippedRecords: 0, malformedPackets: 2, sightings: 1)
        #expect(summary.text == "1 beacon in 120 records of \(CaptureFormat.btsnoopHCI); 2 malformed packet(s) skipped")
    }

    @Test func secondsSinceAStartKeepTheNanosecondsOfFarDates() {
        let start = CaptureTimestamp(unixSeconds: 10_413_792_000, nanosecondOfSecond: 999_999_999)
        let later = CaptureTimestamp(unixSeconds: 10_413_792_002, nanosecondOfSecond: 1)
        #expect(abs(later.seconds(since: start) - 1.000000002) < 1e-12)
        #expect(abs(start.seconds(since: later) + 1.000000002) < 1e-12)
    }

    @Test func theTableHeaderComesWithTheFirstRowOrAtTheEnd() {
        let row = Self.sighting(CaptureTimestamp(unixSeconds: 1, nanosecondOfSecond: 0))
        let table = Self.text { $0.append(row, as: .table); $0.append(row, as: .table); $0.finish(.table) }
        #expect(table.split(separator: "\n").count == 3 && table.hasPrefix(CapturedBeaconText.tableHeader))
        #expect(Self.text { $0.finish(.table) } == CapturedBeaconText.tableHeader, "no beacon: the header alone")
        let json = Self.text { $0.append(row, as: .json); $0.finish(.json) }
        #expect(json == Self.text { $0.appendJSON(row) }, "JSON has no header")
    }
}
