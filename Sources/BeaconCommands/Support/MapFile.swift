// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import BeaconMaps
import Foundation
import HCITransport

/// Writes a map in the format its file's extension names, through the one safe writer
/// (``AtomicOutputFile``: the file is whole or untouched). A PNG is the SVG rendered by
/// `rsvg-convert` (librsvg), fed on its standard input and read from its standard output, so
/// no other file is written.
enum MapFile {
    enum Format: Equatable {
        case svg, html, png

        init?(path: String) {
            switch (path as NSString).pathExtension.lowercased() {
            case "svg": self = .svg
            case "html", "htm": self = .html
            case "png": self = .png
            default: return nil
            }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// `rsvg-convert` on PATH, or nil.
    static func rasteriser() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/rsvg-convert" }.first { tool in
            // A regular file this process may execute (a directory named so is not the tool).
            let system = LiveSystemCalls()
            guard case .success(let info) = system.status(tool, followingLinks: true), info.st_mode & S_IFMT == S_IFREG else { return false }
            return (try? system.checkAccess(tool, mode: X_OK).get()) != nil
        }
    }

    static func write(_ scene: MapScene, timeline: MapTimeline?, format: Format, to path: String) throws {
        let map = SVGMap(scene)
        try write(svg: map.render(), page: { MapHTML.page(map, timeline: timeline) }, format: format, to: path)
    }

    /// Any picture: its SVG, and the HTML page around it.
    static func write(svg: String, page: () -> String, format: Format, to path: String) throws {
        let bytes: [UInt8]
        switch format {
        case .svg: bytes = Array(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + svg).utf8)
        case .html: bytes = Array(page().utf8)
        case .png: bytes = try png(svg)
        }
        do throws(OutputFileError) { try AtomicOutputFile.write(bytes, to: path) } catch { throw Failure(description: "\(error)") }
    }

    /// The SVG rendered to PNG by `rsvg-convert` (at the SVG's own pixel size).
    static func png(_ svg: String) throws -> [UInt8] {
        guard let tool = rasteriser() else {
            throw Failure(description: "a PNG is drawn by rsvg-convert, which is not installed (Debian: apt-get install librsvg2-bin)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["--format", "png"]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Fed from another thread while this one reads, so neither pipe fills up and blocks the other.
        let data = Data(svg.utf8)
        let feeder = Thread {
            try? input.fileHandleForWriting.write(contentsOf: data)
            try? input.fileHandleForWriting.close()
        }
        feeder.start()
        let png = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, !png.isEmpty else {
            throw Failure(description: "rsvg-convert failed (exit \(process.terminationStatus)): \(message.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        return Array(png)
    }
}
