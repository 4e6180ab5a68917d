// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation

/// A PNG read back for pixel checks. Foundation on Linux has no inflate, so the decoding is
/// Python's standard library (zlib), which the test machine has (scripts/setup --tests): 8-bit
/// RGB or RGBA, not interlaced, as rsvg-convert and Chromium's screenshots write. The whole
/// image comes back as hex.
public struct PNGImage: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public struct RGB: CustomStringConvertible, Sendable {
        public var r: Int, g: Int, b: Int
        public func isNear(_ r: Int, _ g: Int, _ b: Int, tolerance: Int = 24) -> Bool {
            abs(self.r - r) <= tolerance && abs(self.g - g) <= tolerance && abs(self.b - b) <= tolerance
        }
        public var description: String { "rgb(\(r), \(g), \(b))" }
    }

    public var width: Int
    public var height: Int
    /// Three bytes a pixel, rows top to bottom.
    public var rgb: [UInt8]

    static let decoder = """
        import struct, sys, zlib
        data = open(sys.argv[1], "rb").read()
        assert data[:8] == b"\\x89PNG\\r\\n\\x1a\\n", "not a PNG"
        pos, idat = 8, b""
        while pos < len(data):
            n, kind = struct.unpack(">I4s", data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + n]
            if kind == b"IHDR":
                w, h, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
                assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
            elif kind == b"IDAT":
                idat += body
            pos += 12 + n
        bpp = 4 if colour == 6 else 3
        raw, stride, prev, out = zlib.decompress(idat), w * bpp, bytearray(w * bpp), bytearray()
        for y in range(h):
            f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                if f == 1: line[i] = (line[i] + a) & 255
                elif f == 2: line[i] = (line[i] + b) & 255
                elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
                elif f == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            prev = line
            for x in range(w):
                px = line[x * bpp:x * bpp + bpp]
                alpha = px[3] if bpp == 4 else 255
                # Composited on white, as a viewer shows it.
                out += bytes(round((v * alpha + 255 * (255 - alpha)) / 255) for v in px[:3])
        print(w, h)
        print(out.hex())
        """

    public init(contentsOf url: URL) throws {
        let python = try Executables.require("python3", install: "apt-get install python3")
        let result = try Program.run(python, ["-c", Self.decoder, url.path])
        guard result.status == 0, result.lines.count >= 2 else { throw Failure(description: "cannot decode \(url.path): \(result)") }
        let lines = result.lines
        let size = lines[0].split(separator: " ").compactMap { Int($0) }
        width = size[0]
        height = size[1]
        var bytes: [UInt8] = []
        bytes.reserveCapacity(width * height * 3)
        var high: UInt8? = nil
        for c in lines[1].utf8 {
            let v = c <= 57 ? c - 48 : c - 87
            if let h = high { bytes.append(h << 4 | v); high = nil } else { high = v }
        }
        rgb = bytes
    }

    public func pixel(x: Int, y: Int) -> RGB {
        let i = (y * width + x) * 3
        return RGB(r: Int(rgb[i]), g: Int(rgb[i + 1]), b: Int(rgb[i + 2]))
    }
}
