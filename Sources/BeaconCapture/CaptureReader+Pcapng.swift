// SPDX-License-Identifier: GPL-2.0-or-later

/// pcapng blocks (see ``Pcapng``): read with the same buffer, `ensure` and refills as btsnoop and
/// pcap records, so a block may straddle any number of reads. Every length is checked before it
/// is used; blocks the reader needs are read whole (at most ``Pcapng/maximumBlockLength``), the
/// others stream past without growing the buffer.
extension CaptureReader {
    @usableFromInline
    mutating func nextPcapngPacket() throws(CaptureError) -> CapturedPacket? {
        while true {
            guard try ensure(8) else {
                // Only packets of link types this reader does not know: say so rather than print nothing.
                if !readAnyLinkPacket, let linkType = firstUnsupportedLinkType {
                    throw .unsupportedLinkType(format: "pcapng", value: linkType)
                }
                return nil
            }
            let offset = bufferFileOffset + start
            // The Section Header's type reads the same in both byte orders; its magic sets the order.
            var type = word(at: start, bigEndian: true)
            if type == Pcapng.BlockType.sectionHeader {
                try ensureBlock(12, offset: offset)
                let magic = word(at: start + 8, bigEndian: true)
                switch magic {
                case Pcapng.byteOrderMagic: sectionBigEndian = true
                case Pcapng.byteOrderMagic.byteSwapped: sectionBigEndian = false
                default: throw .malformedBlock(fileOffset: offset, blockType: type, problem: .unknownByteOrder(magic: magic))
                }
            } else {
                type = word(at: start)
            }
            let total = word(at: start + 4)
            guard total >= Pcapng.minimumLength(type) else {
                throw .malformedBlock(fileOffset: offset, blockType: type,
                                      problem: .totalLengthTooSmall(length: total, minimum: Pcapng.minimumLength(type)))
            }
            guard total % 4 == 0 else {
                throw .malformedBlock(fileOffset: offset, blockType: type, problem: .totalLengthNotMultipleOfFour(length: total))
            }
            switch type {
            case Pcapng.BlockType.sectionHeader:
                try readWholeBlock(type, total: total, offset: offset)
                let major = half(at: start + 12)
                guard major == Pcapng.majorVersion else {
                    throw .malformedBlock(fileOffset: offset, blockType: type,
                                          problem: .unsupportedVersion(major: major, minor: half(at: start + 14)))
                }
                interfaces.removeAll(keepingCapacity: true)
                start += Int(total)
            case Pcapng.BlockType.interfaceDescription:
                try readWholeBlock(type, total: total, offset: offset)
                guard interfaces.count < Pcapng.maximumInterfaces else {
                    throw .malformedBlock(fileOffset: offset, blockType: type, problem: .tooManyInterfaces(limit: Pcapng.maximumInterfaces))
                }
                interfaces.append(try interfaceDescription(total: total, offset: offset))
                start += Int(total)
            case Pcapng.BlockType.enhancedPacket, Pcapng.BlockType.simplePacket:
                try readWholeBlock(type, total: total, offset: offset)
                if let packet = try packetBlock(type, total: total, offset: offset) { return packet }
            default:
                try skipBlock(type, total: total, offset: offset)
            }
        }
    }

    /// A 32-bit field at buffer index `i`, in the section's byte order unless told.
    @usableFromInline
    func word(at i: Int, bigEndian: Bool? = nil) -> UInt32 {
        let order = bigEndian ?? sectionBigEndian
        return buffer.withUnsafeBytes { CaptureBytes.uint32($0, i, bigEndian: order) }
    }

    @usableFromInline
    func half(at i: Int) -> UInt16 {
        let order = sectionBigEndian
        return buffer.withUnsafeBytes { CaptureBytes.uint16($0, i, bigEndian: order) }
    }

    /// `count` bytes of the block at `offset`, or the block is truncated (said at its own offset).
    @usableFromInline
    mutating func ensureBlock(_ count: Int, offset: Int, needed: Int? = nil, consumed: Int = 0) throws(CaptureError) {
        let available: Int
        do throws(CaptureError) {
            if try ensure(count) { return }
            available = 0
        } catch {
            guard case .truncatedRecord = error else { throw error }
            available = end - start
        }
        throw .truncatedRecord(fileOffset: offset, needed: needed ?? count, available: consumed + available)
    }

    /// The whole block in the buffer from `start`, its trailing length checked.
    @usableFromInline
    mutating func readWholeBlock(_ type: UInt32, total: UInt32, offset: Int) throws(CaptureError) {
        guard total <= Pcapng.maximumBlockLength else {
            throw .malformedBlock(fileOffset: offset, blockType: type, problem: .tooLarge(length: total, limit: Pcapng.maximumBlockLength))
        }
        try ensureBlock(Int(total), offset: offset)
        let trailing = word(at: start + Int(total) - 4)
        guard trailing == total else {
            throw .malformedBlock(fileOffset: offset, blockType: type, problem: .trailingLengthMismatch(leading: total, trailing: trailing))
        }
    }

    /// Skips a block the reader has no use for, reading it a buffer at a time, then checks its trailing length.
    @usableFromInline
    mutating func skipBlock(_ type: UInt32, total: UInt32, offset: Int) throws(CaptureError) {
        var remaining = Int(total) - 4
        while true {
            let available = end - start
            if available >= remaining {
                start += remaining
                break
            }
            start = end
            remaining -= available
            try ensureBlock(min(remaining, buffer.count), offset: offset, needed: Int(total), consumed: Int(total) - 4 - remaining)
        }
        try ensureBlock(4, offset: offset, needed: Int(total), consumed: Int(total) - 4)
        let trailing = word(at: start)
        guard trailing == total else {
            throw .malformedBlock(fileOffset: offset, blockType: type, problem: .trailingLengthMismatch(leading: total, trailing: trailing))
        }
        start += 4
    }

    /// An Interface Description Block read whole at `start`: link type, snap length, then options
    /// (each: code, length, value padded to 4) up to the trailing length.
    @usableFromInline
    func interfaceDescription(total: UInt32, offset: Int) throws(CaptureError) -> Pcapng.Interface {
        let type = Pcapng.BlockType.interfaceDescription
        let rawLinkType = UInt32(half(at: start + 8))
        var interface = Pcapng.Interface(linkType: CaptureLinkType(rawLinkType), rawLinkType: rawLinkType,
                                         snapLength: word(at: start + 12), resolution: .microseconds, offsetSeconds: 0)
        let optionsEnd = start + Int(total) - 4
        var option = start + 16
        while option + 4 <= optionsEnd {
            let code = half(at: option)
            let length = half(at: option + 2)
            if code == Pcapng.InterfaceOption.endOfOptions { break }
            let value = option + 4
            guard value + Int(length) <= optionsEnd else {
                throw .malformedBlock(fileOffset: offset, blockType: type, problem: .optionPastBlock(code: code, length: length))
            }
            switch code {
            case Pcapng.InterfaceOption.timestampResolution:
                guard length == 1 else {
                    throw .malformedBlock(fileOffset: offset, blockType: type, problem: .optionLength(code: code, length: length, expected: 1))
                }
                interface.resolution = TimestampResolution(rawValue: buffer[value])
            case Pcapng.InterfaceOption.timestampOffset:
                guard length == 8 else {
                    throw .malformedBlock(fileOffset: offset, blockType: type, problem: .optionLength(code: code, length: length, expected: 8))
                }
                let order = sectionBigEndian
                interface.offsetSeconds = Int64(bitPattern: buffer.withUnsafeBytes { CaptureBytes.uint64($0, value, bigEndian: order) })
            default:
                break
            }
            option = value + (Int(length) + 3) & ~3
        }
        return interface
    }

    /// An Enhanced or Simple Packet Block read whole at `start`: consumes it, counts it as a
    /// record and returns its packet (`nil`: skipped, counted).
    @usableFromInline
    mutating func packetBlock(_ type: UInt32, total: UInt32, offset: Int) throws(CaptureError) -> CapturedPacket? {
        let enhanced = type == Pcapng.BlockType.enhancedPacket
        let id = enhanced ? word(at: start + 8) : 0
        guard id < interfaces.count else {
            throw .malformedBlock(fileOffset: offset, blockType: type, problem: .unknownInterface(id: id, described: interfaces.count))
        }
        let interface = interfaces[Int(id)]
        let dataStart = start + (enhanced ? 28 : 12)
        let room = start + Int(total) - 4 - dataStart
        let captured: Int
        if enhanced {
            let field = word(at: start + 20)
            guard field <= room else {
                throw .malformedBlock(fileOffset: offset, blockType: type, problem: .capturedLengthPastBlock(captured: field, room: room))
            }
            captured = Int(field)
        } else {
            // No captured length: the original length, cut to the block and the interface's snap length.
            let snap = interface.snapLength == 0 ? Int.max : Int(interface.snapLength)
            captured = min(Int(word(at: start + 8)), room, snap)
        }
        guard captured <= Self.maximumRecordLength else { throw .recordTooLarge(fileOffset: offset, length: captured) }
        let timestamp = enhanced
            ? interface.resolution.timestamp(UInt64(word(at: start + 12)) << 32 | UInt64(word(at: start + 16)),
                                             offsetSeconds: interface.offsetSeconds)
            : CaptureTimestamp(unixSeconds: 0, nanosecondOfSecond: 0)
        start += Int(total)
        recordCount += 1
        guard let linkType = interface.linkType else {
            if firstUnsupportedLinkType == nil { firstUnsupportedLinkType = interface.rawLinkType }
            skippedCount += 1
            return nil
        }
        readAnyLinkPacket = true
        let packet = linkPacket(linkType, data: dataStart..<(dataStart + captured), timestamp: timestamp,
                                controller: UInt16(truncatingIfNeeded: id))
        if packet == nil { skippedCount += 1 }
        return packet
    }
}
