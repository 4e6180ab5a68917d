// SPDX-License-Identifier: GPL-2.0-or-later

/// A self-contained HTML page around a map's SVG: no stylesheet, script or font fetched from
/// anywhere (it opens offline, from a file). It is also well-formed XML (empty elements closed,
/// no `<` or `&` in the script), so `xmllint` checks it as it checks the SVG. With a ``MapTimeline``, a slider moves through the
/// scenario's time and the beacon markers turn on and off as it goes.
public enum MapHTML {
    public static func page(_ map: SVGMap, timeline: MapTimeline? = nil) -> String {
        page(svg: map.render(), title: map.scene.title, timeline: timeline)
    }

    /// The page around any SVG picture of this module (a map, a chart).
    public static func page(svg: String, title: String, timeline: MapTimeline? = nil) -> String {
        var out = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8"/>
            <meta name="viewport" content="width=device-width, initial-scale=1"/>
            <title>\(SVGText.escaped(title))</title>
            <style>
            body { margin: 0; font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; background: #ffffff; }
            svg { display: block; max-width: 100%; height: auto; }
            #timeline { padding: 8px 12px; }
            #timeline input { width: min(900px, 90vw); }
            g.hidden > * { fill: #ffffff; stroke: \(MapStyle.offAir.colour); }
            </style>
            </head>
            <body>

            """
        if let timeline {
            out += """
                <div id="timeline"><label for="time">time</label> <input id="time" type="range" min="0" \
                max="\(SVGText.number(timeline.duration))" step="0.1" value="0"/> <output id="now">0 s</output> \
                <span id="count"></span></div>

                """
        }
        out += svg
        if let timeline { out += script(timeline) }
        out += "</body>\n</html>\n"
        return out
    }

    /// The slider's script: the changes as data, and the state at the slider's time applied to
    /// the markers (`hidden` greys a beacon out as the legend's "off air").
    static func script(_ timeline: MapTimeline) -> String {
        let initial = timeline.initiallyOnAir.sorted().map { "\"\(jsEscaped($0))\"" }.joined(separator: ",")
        let changes = timeline.changes.map { "[\(SVGText.number($0.time)),\"\(jsEscaped($0.id))\",\($0.onAir)]" }.joined(separator: ",")
        return """
            <script>
            const initial = [\(initial)];
            const changes = [\(changes)];
            const slider = document.getElementById("time");
            function show() {
              const t = Number(slider.value);
              const on = new Set(initial);
              for (const [time, id, onAir] of changes) { if (time > t) break; if (onAir) on.add(id); else on.delete(id); }
              for (const g of document.querySelectorAll("g[id^='m-']")) g.classList.toggle("hidden", !on.has(g.id.slice(2)));
              document.getElementById("now").textContent = t.toFixed(1) + " s";
              document.getElementById("count").textContent = on.size + " on air";
            }
            slider.addEventListener("input", show);
            show();
            </script>

            """
    }

    /// Text inside a JavaScript string in a `<script>` element: quotes, backslashes and `<`
    /// (so no `</script>` ends it early) escaped.
    static func jsEscaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "<": out += "\\u003c"
            default:
                if scalar.value < 0x20 { out += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}

/// Beacons appearing and disappearing over a scenario's pass, for the HTML slider: marker ids
/// (``MapMarker/id``) on air at the start, and each later change in time order.
public struct MapTimeline: Hashable, Sendable {
    public var duration: Double
    public var initiallyOnAir: Set<String>
    public var changes: [(time: Double, id: String, onAir: Bool)] {
        get { storedChanges.map { ($0.time, $0.id, $0.onAir) } }
        set { storedChanges = newValue.map { Change(time: $0.time, id: $0.id, onAir: $0.onAir) } }
    }

    struct Change: Hashable, Sendable {
        var time: Double
        var id: String
        var onAir: Bool
    }
    var storedChanges: [Change] = []

    public init(duration: Double, initiallyOnAir: Set<String>, changes: [(time: Double, id: String, onAir: Bool)]) {
        self.duration = duration
        self.initiallyOnAir = initiallyOnAir
        self.changes = changes.sorted { $0.time < $1.time }
    }
}
