// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer target `h4`: arbitrary bytes as an H4 stream from a controller, cut into chunks in
// several ways, then every event packet through HCI event parsing. Built and run by scripts/fuzz.
import HCI

@_cdecl("LLVMFuzzerTestOneInput")
public func h4FuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = Array(fuzzInput(data, size))
    var choices = InputChoices(seed: fuzzInput(data, size))
    let whole = decodeStream(input) { _ in input.count }
    // A transport may deliver the same bytes in any cuts: one byte at a time, or reads of any size.
    let byByte = decodeStream(input) { _ in 1 }
    let random = decodeStream(input) { left in choices.next(upTo: min(left, 300)) }
    require(byByte == whole, "byte-at-a-time \(byByte.items.count) items vs one chunk \(whole.items.count)")
    require(random == whole, "random chunks \(random.items.count) items vs one chunk \(whole.items.count)")

    // Nothing is lost or invented: packets, dropped bytes and the undecoded tail are the input.
    var rebuilt: [UInt8] = []
    for item in whole.items {
        switch item {
        case .packet(let packet): rebuilt += packet.h4Bytes
        case .dropped(let byte, let offset):
            require(offset == rebuilt.count, "dropped byte reported at \(offset), expected \(rebuilt.count)")
            rebuilt.append(byte)
        }
    }
    rebuilt += input.suffix(whole.buffered)
    require(rebuilt == input, "packets + dropped bytes + \(whole.buffered) buffered differ from the input")

    for case .packet(let packet) in whole.items { checkPacket(packet) }
    return 0
}

enum StreamItem: Equatable {
    case packet(H4Packet)
    case dropped(byte: UInt8, offset: Int)
}

struct DecodedStream: Equatable {
    var items: [StreamItem] = []
    var buffered = 0
}

/// Feeds `input` in chunks of `chunkSize(bytesLeft)` bytes, recording packets and dropped bytes in
/// stream order, as a transport's read loop does (it keeps going after a bad indicator).
func decodeStream(_ input: [UInt8], chunkSize: (Int) -> Int) -> DecodedStream {
    var decoder = H4StreamDecoder()
    var out = DecodedStream()
    var at = 0
    while at < input.count {
        let end = min(input.count, at + max(1, chunkSize(input.count - at)))
        var chunk = input[at..<end]
        at = end
        // feed() stops before garbage that follows packets (the next call throws), so keep calling
        // it until it has nothing more to give for these bytes.
        while true {
            do {
                let packets = try decoder.feed(chunk)
                chunk = []
                if packets.isEmpty { break }
                out.items += packets.map(StreamItem.packet)
            } catch {
                switch error {
                case let .unknownPacketIndicator(byte, offset): out.items.append(.dropped(byte: byte, offset: offset))
                case .bufferFull: require(false, "buffer full on a \(input.count)-byte input: \(error)")
                }
                chunk = []  // the chunk was appended before the throw; decode the rest of it
            }
        }
    }
    out.buffered = decoder.bufferedByteCount
    return out
}

/// A framed packet always parses at its own level, and what the event decoder makes of an event
/// encodes to something it decodes the same way.
func checkPacket(_ packet: H4Packet) {
    switch packet.type {
    case .event:
        guard let event = try? packet.eventPacket() else { return require(false, "H4 event \(packet.bytes) does not parse") }
        require(event.bytes == packet.bytes, "event packet re-encodes to \(event.bytes), was \(packet.bytes)")
        guard let decoded = try? HCIEvent(packet: event) else { return }  // malformed parameters: a clean error
        let again = Result { () throws(HCIDecodingError) in try HCIEvent(packet: decoded.packet) }
        require(again == .success(decoded), "\(decoded) encodes to \(decoded.packet.bytes), which decodes as \(again)")
        // The scanner's allocation-free path reads the same reports as the typed decoder.
        if case .leAdvertisingReport(let typed) = decoded {
            var inPlace: [LEAdvertisingReportEvent.Report] = []
            let walked = Result { () throws(HCIDecodingError) in
                try LEAdvertisingReportEvent.forEachReport(inEventBytes: packet.bytes[...]) { inPlace.append($0) }
            }
            require(walked == .success(true) && inPlace == typed.reports, "forEachReport \(walked) \(inPlace) vs \(typed.reports)")
        }
    case .command:
        guard let command = try? packet.commandPacket() else { return require(false, "H4 command \(packet.bytes) does not parse") }
        require(command.bytes == packet.bytes, "command packet re-encodes to \(command.bytes), was \(packet.bytes)")
    default:
        break
    }
}
