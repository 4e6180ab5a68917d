// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Foundation
import Testing

/// `beacon decode`, run as a subprocess.
@Suite struct DecodeCommandTests {
    static let appleHex = "0201061AFF4C000215E2C56DB5DFFB48D2B060D0F5A71096E000010002C5"
    static let appleJSON = #"{"format":"ibeacon","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":2,"power":-59}"#
    /// The manufacturer structure (at byte 3) claims 0x1B bytes where only 0x1A follow.
    static let overrunHex = "0201061BFF4C000215E2C56DB5DFFB48D2B060D0F5A71096E000010002C5"

    @Test func textOutputNamesTheFields() throws {
        let result = try BeaconExecutable.run(["decode", Self.appleHex])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.count == 1)
        let line = try #require(result.lines.first)
        for field in ["E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "major 1", "minor 2", "power -59"] {
            #expect(line.contains(field), "\(line)")
        }
        #expect(result.stderr.isEmpty)
    }

    @Test func jsonIsExactlyOneObjectPerInput() throws {
        let result = try BeaconExecutable.run(["decode", "--json", Self.appleHex, "02 01 06 " + Self.appleHex.dropFirst(6)])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == [Self.appleJSON, Self.appleJSON])
    }

    @Test func anInvalidPayloadReportsOffsetAndReasonAndExits65() throws {
        // The library's verdict on the same bytes, so that the CLI reports what the codec found.
        var expected: BeaconDecodingError? = nil
        do { _ = try IBeacon(decoding: Hex.bytes(Self.overrunHex)!) } catch { expected = error }
        let error = try #require(expected)
        #expect(error.kind == .lengthOverrun && error.offset == 3)

        let json = try BeaconExecutable.run(["decode", "--json", Self.overrunHex])
        #expect(json.status == 65, "\(json)")
        let object = try BeaconExecutable.jsonObject(try #require(json.lines.first))
        #expect(object["error"] as? String == "length-overrun")
        #expect(object["offset"] as? Int == 3)
        #expect(object["reason"] as? String == error.reason)

        let text = try BeaconExecutable.run(["decode", Self.overrunHex])
        #expect(text.status == 65, "\(text)")
        #expect(text.stdout.isEmpty)
        #expect(text.stderr.contains("byte 3"))
        #expect(text.stderr.contains("length-overrun"))
    }

    @Test func oneBadInputAmongGoodOnesStillExits65AndKeepsOrder() throws {
        let result = try BeaconExecutable.run(["decode", "--json", Self.appleHex, Self.overrunHex, "zz"])
        #expect(result.status == 65, "\(result)")
        #expect(result.lines.count == 3)
        #expect(result.lines.first == Self.appleJSON)
        #expect(try BeaconExecutable.jsonObject(result.lines[1])["error"] as? String == "length-overrun")
        let invalid = try BeaconExecutable.jsonObject(result.lines[2])
        #expect(invalid["error"] as? String == "invalid-hex")
        #expect(invalid["offset"] as? Int == 0)
    }

    @Test func standardInputIsOnePayloadPerLine() throws {
        let input = Self.appleHex + "\n\n  02:01:06:1A:FF:4C:00:02:15:E2:C5:6D:B5:DF:FB:48:D2:B0:60:D0:F5:A7:10:96:E0:00:01:00:02:C5\r\n" + Self.overrunHex + "\n"
        let result = try BeaconExecutable.run(["decode", "--json"], stdin: input)
        #expect(result.status == 65, "\(result)")
        #expect(result.lines.count == 3, "blank lines are skipped: \(result)")
        #expect(Array(result.lines.prefix(2)) == [Self.appleJSON, Self.appleJSON])
        #expect(try BeaconExecutable.jsonObject(result.lines[2])["offset"] as? Int == 3)

        let clean = try BeaconExecutable.run(["decode"], stdin: Self.appleHex + "\n")
        #expect(clean.status == 0, "\(clean)")
        #expect(clean.lines.count == 1)
    }

    /// `decode` at the end of a pipe that stays open answers each line as it arrives: the first
    /// answer must come while standard input is still open (before, it came only at EOF).
    @Test func standardInputIsAnsweredLineByLine() throws {
        let process = Process()
        process.executableURL = try BeaconExecutable.location.get()
        process.arguments = ["decode", "--json"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let received = Locked("")
        let arrived = DispatchSemaphore(value: 0)
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            received.update { $0 += String(decoding: data, as: UTF8.self) }
            arrived.signal()
        }
        try process.run()
        defer {
            output.fileHandleForReading.readabilityHandler = nil
            if process.isRunning { process.terminate() }
        }
        /// Waits for `lines` complete lines of output; a generous bound, as a busy machine may be
        /// slow, while the old behaviour never answered before EOF at all.
        func waitForLines(_ lines: Int) -> [String] {
            let deadline = DispatchTime.now() + .seconds(60)
            while received.value.filter({ $0 == "\n" }).count < lines {
                if arrived.wait(timeout: deadline) == .timedOut { break }
            }
            return received.value.split(separator: "\n").map(String.init)
        }
        input.fileHandleForWriting.write(Data((Self.appleHex + "\n").utf8))
        #expect(waitForLines(1) == [Self.appleJSON])
        input.fileHandleForWriting.write(Data((Self.overrunHex + "\n").utf8))
        let both = waitForLines(2)
        #expect(both.count == 2 && both[1].contains("length-overrun"), "\(both)")
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 65)
    }

    /// The offset of invalid hex is the character where it stops being hex, also for a
    /// fullwidth digit (which Unicode calls a hex digit, and Hex.bytes does not accept).
    @Test(arguments: [("02０1", 2), ("0x02\u{FF21}1", 4), ("0201 06é", 7), ("0:21", 1), ("0201e", 5)])
    func invalidHexOffsetIsTheFirstBadCharacter(input: String, offset: Int) throws {
        let result = try BeaconExecutable.run(["decode", "--json", input])
        #expect(result.status == 65, "\(result)")
        let object = try BeaconExecutable.jsonObject(result.stdout)
        #expect(object["error"] as? String == "invalid-hex")
        #expect(object["offset"] as? Int == offset, "\(result)")
    }

    @Test func lenientFindsTheBeaconBehindJunk() throws {
        // A truncated structure (05 09 41) before the iBeacon: strict refuses, lenient finds it.
        let junk = "050941" + Self.appleHex.dropFirst(6)
        let strict = try BeaconExecutable.run(["decode", "--json", junk])
        #expect(strict.status == 65, "\(strict)")
        let lenient = try BeaconExecutable.run(["decode", "--json", "--lenient", junk])
        #expect(lenient.status == 0, "\(lenient)")
        #expect(lenient.lines == [Self.appleJSON])
    }

    @Test func extendedAllows254Bytes() throws {
        // The iBeacon plus a 12-byte Complete Local Name: 43 bytes, over the legacy 31.
        let name = "0C09" + Hex.string(Array("beacon-room".utf8))
        let long = Self.appleHex + name
        let legacy = try BeaconExecutable.run(["decode", "--json", long])
        #expect(legacy.status == 65, "\(legacy)")
        let object = try BeaconExecutable.jsonObject(try #require(legacy.lines.first))
        #expect(object["error"] as? String == "too-long")
        #expect(object["offset"] as? Int == 31)
        let extended = try BeaconExecutable.run(["decode", "--json", "--extended", long])
        #expect(extended.status == 0, "\(extended)")
        #expect(extended.lines == [Self.appleJSON])
    }

    /// Text that is not hex is placed by character, not by byte.
    @Test func invalidHexNamesTheCharacter() throws {
        let result = try BeaconExecutable.run(["decode", "E2 C5 zz"])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("error: E2 C5 zz: character 6: invalid-hex:"), "\(result)")
        let overrun = try BeaconExecutable.run(["decode", Self.overrunHex])
        #expect(overrun.stderr.contains(": byte "), "\(overrun)")
    }
}

/// Text appended by a reading thread and read by the test.
private final class Locked: @unchecked Sendable {
    private let lock = NSLock()
    private var text: String
    init(_ text: String) { self.text = text }
    var value: String { lock.withLock { text } }
    func update(_ change: (inout String) -> Void) { lock.withLock { change(&text) } }
}
