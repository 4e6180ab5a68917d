// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// Reads a whole capture and reports every iBeacon in it: ``CaptureReader`` and
/// ``BeaconExtractor`` together.
public enum CaptureBeaconScan {
    /// What one pass over a file saw.
    public struct Summary: Hashable, Sendable {
        public var format: CaptureFormat
        public var records: Int
        public var skippedRecords: Int
        public var malformedPackets: Int
        public var sightings: Int

        @inlinable
        public init(format: CaptureFormat, records: Int, skippedRecords: Int, malformedPackets: Int, sightings: Int) {
            self.format = format
            self.records = records
            self.skippedRecords = skippedRecords
            self.malformedPackets = malformedPackets
            self.sightings = sightings
        }
    }

    /// Calls `body` with each iBeacon in the capture at `path`, in file order, and `progress`
    /// (if any) with the bytes consumed every ``progressInterval`` packets.
    @inlinable
    public static func forEachSighting(path: String, options: BeaconDecodingOptions = .strict,
                                       chunkSize: Int = CaptureReader.defaultChunkSize,
                                       progress: ((_ bytesConsumed: Int) -> Void)? = nil,
                                       _ body: (CapturedBeacon) -> Void) throws(CaptureError) -> Summary {
        var reader = try CaptureReader(path: path, chunkSize: chunkSize)
        var extractor = BeaconExtractor(options: options)
        var count = 0
        var packets = 0
        while let packet = try reader.nextPacket() {
            packets &+= 1
            if let progress, packets % progressInterval == 0 { progress(reader.bytesConsumed) }
            extractor.extract(packet) { sighting in
                count += 1
                body(sighting)
            }
        }
        return Summary(format: reader.format, records: reader.recordsRead, skippedRecords: reader.skippedRecords,
                       malformedPackets: extractor.malformedPackets, sightings: count)
    }

    /// How many packets pass between two calls of a progress closure.
    public static let progressInterval = 4096

    /// Every iBeacon in the capture at `path` (for tests and small files).
    public static func sightings(path: String, options: BeaconDecodingOptions = .strict) throws(CaptureError) -> [CapturedBeacon] {
        var all: [CapturedBeacon] = []
        _ = try forEachSighting(path: path, options: options) { all.append($0) }
        return all
    }
}
