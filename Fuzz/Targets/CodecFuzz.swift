// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer target `codec`: arbitrary bytes as advertising data through the AD structure walker
// and the iBeacon decoder (strict, strict extended, lenient). Built and run by scripts/fuzz.
import BeaconCodec

@_cdecl("LLVMFuzzerTestOneInput")
public func codecFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    checkWalker(bytes)
    checkDecoders(bytes)
    checkEncoding(bytes)
    return 0
}

/// A complete walk accounts for every byte: the structures it returned, written back, followed by
/// zero padding, are the input. An error points inside the input.
func checkWalker(_ bytes: UnsafeRawBufferPointer) {
    var walker = ADStructureWalker(bytes)
    var rebuilt: [UInt8] = []
    var sequenceOffsets: [Int] = []
    for s in ADStructures(bytes) { sequenceOffsets.append(s.offset) }
    var walkedOffsets: [Int] = []
    do {
        while let s = try walker.next() {
            require(s.offset == rebuilt.count, "structure at \(s.offset) after \(rebuilt.count) bytes")
            walkedOffsets.append(s.offset)
            rebuilt.append(UInt8(s.data.count + 1))
            rebuilt.append(s.type.rawValue)
            rebuilt.append(contentsOf: s.data)
        }
        require(rebuilt.count <= bytes.count, "walk returned \(rebuilt.count) bytes of \(bytes.count)")
        rebuilt.append(contentsOf: repeatElement(0, count: bytes.count - rebuilt.count))
        require(rebuilt.elementsEqual(bytes), "structures plus padding differ from the input")
    } catch {
        require((0..<bytes.count).contains(error.offset), "walker error \(error) outside \(bytes.count) bytes")
    }
    // The Sequence view stops quietly where the walker throws, after the same structures.
    require(sequenceOffsets == walkedOffsets, "ADStructures \(sequenceOffsets) vs walker \(walkedOffsets)")
}

func decode(_ bytes: UnsafeRawBufferPointer, _ options: BeaconDecodingOptions) -> Result<IBeacon, BeaconDecodingError> {
    Result { () throws(BeaconDecodingError) in try IBeacon(decoding: bytes, options: options) }
}

/// The three modes agree where their rules overlap, a decoded beacon re-encodes to the bytes it
/// came from, and errors point inside (or just past) the input.
func checkDecoders(_ bytes: UnsafeRawBufferPointer) {
    let strict = decode(bytes, .strict)
    let extended = decode(bytes, .strictExtended)
    let lenient = decode(bytes, .lenient)
    for case .failure(let error) in [strict, extended, lenient] {
        require((0...bytes.count).contains(error.offset), "error \(error) outside \(bytes.count) bytes")
    }
    if case .failure(let error) = lenient { require(error.kind == .noIBeacon, "lenient threw \(error)") }
    // Strict and strict-extended differ only in the length limit.
    if bytes.count <= IBeaconFormat.legacyMaximum { require(strict == extended, "strict \(strict) vs extended \(extended)") }
    guard case .success(let beacon) = extended else { return }
    // Strict success means exactly one well-formed iBeacon structure, which lenient finds too.
    require(lenient == .success(beacon), "strict found \(beacon), lenient \(lenient)")

    // Decode then re-encode: the input's Apple structure is the encoder's output byte for byte…
    let encoded = Array(beacon.advertisingData(flags: .none))
    let apple = ADStructures(bytes).first { $0.type == .manufacturerSpecificData && $0.data.starts(with: [0x4C, 0x00]) }
    guard let apple else { return require(false, "strict decoded \(beacon) without an Apple structure") }
    let structure = Array(bytes[apple.offset..<(apple.offset + 2 + apple.data.count)])
    require(structure == encoded, "re-encoded \(encoded) vs input structure \(structure)")
    // …and a payload in the encoder's own shape (flags 06/1A or none, then the beacon) is the
    // whole input.
    for flags in BeaconFlags.allCases where IBeacon.encodedSize(flags: flags) == bytes.count {
        let whole = Array(beacon.advertisingData(flags: flags))
        if flags.byte == nil || (bytes[0] == 2 && bytes[1] == 1 && bytes[2] == flags.byte) {
            require(whole.elementsEqual(bytes), "\(beacon) with \(flags) re-encodes to \(whole)")
        }
    }
}

/// Any 21 bytes are a beacon (uuid, major, minor, power); encoding it with each flags option and
/// decoding gives it back in every mode.
func checkEncoding(_ bytes: UnsafeRawBufferPointer) {
    guard bytes.count >= 21 else { return }
    let beacon = IBeacon(uuid: BeaconUUID(bigEndianBytes: UnsafeRawBufferPointer(rebasing: bytes[0..<16])),
                         major: UInt16(bytes[16]) << 8 | UInt16(bytes[17]), minor: UInt16(bytes[18]) << 8 | UInt16(bytes[19]),
                         measuredPower: Int8(bitPattern: bytes[20]))
    for flags in BeaconFlags.allCases {
        let payload = beacon.advertisingData(flags: flags)
        require(payload.count == IBeacon.encodedSize(flags: flags), "\(flags): \(payload.count) bytes")
        for options in [BeaconDecodingOptions.strict, .strictExtended, .lenient] {
            let back = payload.withUnsafeBytes { decode($0, options) }
            require(back == .success(beacon), "\(beacon) with \(flags) decodes as \(back) (\(options))")
        }
    }
}
