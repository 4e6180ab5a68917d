// SPDX-License-Identifier: GPL-2.0-or-later

extension AnyBeacon {
    /// Which beacon format one payload is, and its fields.
    ///
    /// iBeacon is read first, exactly as before the other formats existed (its answers and
    /// errors are unchanged); data without an iBeacon is then read as any format, whose own
    /// error is given only when it found a fault in another format's structure (otherwise
    /// "no iBeacon" stays the answer).
    public init(identifying bytes: UnsafeRawBufferPointer, options: BeaconDecodingOptions = .strict) throws(PayloadDecodingError) {
        let iBeaconFailure: BeaconDecodingError
        do throws(BeaconDecodingError) {
            self = .iBeacon(try IBeacon(decoding: bytes, options: options))
            return
        } catch {
            iBeaconFailure = error
        }
        if iBeaconFailure.kind == .noIBeacon {
            do throws(AnyBeaconDecodingError) {
                self = try AnyBeacon(decoding: bytes, options: options)
                return
            } catch where error.kind != .noBeacon {
                throw PayloadDecodingError(.beacon(error.kind), at: error.offset)
            } catch {}
        }
        throw PayloadDecodingError(.iBeacon(iBeaconFailure.kind), at: iBeaconFailure.offset)
    }

    /// ``init(identifying:options:)`` of payload bytes given as hex text (``Hex/bytes(_:)``'s
    /// grammar); text that is not hex fails with ``PayloadDecodingError/Kind/notHex`` at the
    /// character where it stops being hex (``Hex/firstFault(in:)``).
    public init(identifyingHex text: some StringProtocol, options: BeaconDecodingOptions = .strict) throws(PayloadDecodingError) {
        guard let bytes = Hex.bytes(text) else {
            throw PayloadDecodingError(.notHex, at: Hex.firstFault(in: text))
        }
        let read = bytes.withUnsafeBytes { raw in
            Result { () throws(PayloadDecodingError) in try AnyBeacon(identifying: raw, options: options) }
        }
        self = try read.get()
    }
}
