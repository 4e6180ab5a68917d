// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import ArgumentParser
import BeaconMaps
import HCITransport

/// `--map FILE`: a picture of the run written when it ends, chosen by the extension: `.svg`, a
/// self-contained `.html` page (the SVG inside, nothing fetched), or `.png` (the SVG rendered by
/// `rsvg-convert`, which must be installed: no silent fallback to another format).
struct MapOptions: ParsableArguments {
    @Option(name: .customLong("map"), help: ArgumentHelp(
        "Draw the run as a map when it ends: FILE.svg, FILE.html (self-contained) or FILE.png (needs rsvg-convert: apt-get install librsvg2-bin). Written whole or not at all.",
        valueName: "file"), completion: .file(extensions: ["svg", "html", "png"]))
    var map: String?

    func validate() throws {
        guard let map else { return }
        guard let format = MapFile.Format(path: map) else {
            throw ValidationError("--map: '\(map.escapingControlCharacters)' must end in .svg, .html or .png (the format is chosen by the extension)")
        }
        if format == .png, MapFile.rasteriser() == nil {
            throw ValidationError("--map \(map.escapingControlCharacters): a PNG is drawn by rsvg-convert, which is not installed (Debian: apt-get install librsvg2-bin); or write .svg or .html")
        }
        if map == "-" { throw ValidationError("--map writes a file, not standard output") }
    }

    /// Refuses, before the run, a path the map could not be written to (missing folder, a
    /// directory, a link, a FIFO), or one of the run's own input files.
    func check(inputs: [String]) throws(ExitCode) {
        guard let map else { return }
        if inputs.contains(map) { throw CommandFailure.exit("--map: \(map.escapingControlCharacters) is an input of this run; name another file") }
        do throws(OutputFileError) { try AtomicOutputFile.check(map) } catch { throw CommandFailure.exit("--map: \(error)") }
    }

    /// Draws `scene` into the file (nothing when no `--map` was given); `timeline` makes the
    /// HTML page's slider (ignored by SVG and PNG).
    func write(_ scene: @autoclosure () -> MapScene, timeline: MapTimeline? = nil) throws(ExitCode) {
        guard let map, let format = MapFile.Format(path: map) else { return }
        do {
            try MapFile.write(scene(), timeline: timeline, format: format, to: map)
        } catch {
            throw CommandFailure.exit("--map: \(error)")
        }
    }

    /// Draws a benchmark's error chart into the file (nothing when no `--map` was given).
    func write(_ chart: ErrorCDFChart) throws(ExitCode) {
        guard let map, let format = MapFile.Format(path: map) else { return }
        do {
            let svg = chart.render()
            try MapFile.write(svg: svg, page: { MapHTML.page(svg: svg, title: chart.title) }, format: format, to: map)
        } catch {
            throw CommandFailure.exit("--map: \(error)")
        }
    }
}
