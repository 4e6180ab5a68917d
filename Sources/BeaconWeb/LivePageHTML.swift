// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconMaps

/// The live page: one HTML document with its style and script inline (nothing is fetched from
/// anywhere else, so it works offline). The title and everything else come with the first snapshot. The script opens the `/live` WebSocket, draws each
/// snapshot (the map's SVG when it changes; the moving layer's few elements in place of the ones
/// it put there before; each beacon's marker `m-ID` and row `beacon-ID` get `data-state` and a
/// class), and reconnects after a second when the socket closes.
enum LivePageHTML {
    static func page() -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <link rel="icon" href="data:,">
        <title>beacon</title>
        <style>
        body{font-family:system-ui,sans-serif;margin:0.8em;color:#222;overflow-wrap:anywhere}
        h1{font-size:1.1em;margin:0 0 0.4em}
        #connection{font-size:0.85em;color:#777}
        #connection.offline{color:#b00}
        #map{overflow-x:auto}
        #map svg{display:block;max-width:100%;height:auto;max-height:70vh}
        #map:empty{display:none}
        table{border-collapse:collapse;font-size:0.85em;margin-top:0.5em}
        th,td{padding:0.15em 0.6em;text-align:left;border-bottom:1px solid #ddd}
        tr.active td{color:#176b2c}
        tr.problem td{color:#b00}
        tr.idle td{color:#666}
        #markers g.idle{opacity:0.35}
        #markers g.problem circle{stroke:#b00;stroke-width:3}
        #summary{margin-top:0.4em;font-size:0.9em}
        #messages{font-size:0.8em;color:#555;white-space:pre-wrap}
        @media (max-width:600px){body{margin:0.4em}table{font-size:0.75em}th,td{padding:0.15em 0.3em}}
        </style></head>
        <body>
        <h1 id="title">beacon</h1>
        <div id="connection">connecting…</div>
        <div id="map"></div>
        <table id="table"><thead></thead><tbody></tbody></table>
        <div id="summary"></div>
        <div id="messages"></div>
        <script>
        \(script)
        </script>
        </body></html>
        """
    }

    /// Draws snapshots; kept plain (no framework) so the page stays one file.
    static let script = """
        "use strict";
        const byId = (id) => document.getElementById(id);
        function text(tag, value) { const e = document.createElement(tag); e.textContent = value; return e; }
        // The moving layer (LivePageSnapshot.layer): its text, and the nodes it put on the map.
        let layer = "", layerNodes = [];
        function placeLayer() {
          for (const n of layerNodes) n.remove();
          layerNodes = [];
          const svg = byId("map").querySelector("svg");
          if (!svg || layer === "") return;
          const parsed = document.createElementNS(svg.namespaceURI, "svg");
          parsed.innerHTML = layer;
          // A group the map has (#markers) takes the layer's shapes on top of its own; another
          // goes under the map's markers, labels and legend.
          for (const group of [...parsed.children]) {
            const own = group.id ? svg.querySelector(":scope > #" + group.id) : null;
            if (own) {
              for (const n of [...group.children]) { own.appendChild(n); layerNodes.push(n); }
            } else {
              svg.insertBefore(group, svg.querySelector(":scope > #markers, :scope > #labels, :scope > #scale"));
              layerNodes.push(group);
            }
          }
        }
        // The map is laid out in pixels (its labels placed so none overlap at 11 px): shrunk to a
        // phone's width its text and markers would be too small to read. Scaling only the text
        // up would undo that layout, so the map is never shown below the scale its text stays
        // legible at (SVGMap.smallestLegibleScale); what a narrow window cannot hold, #map scrolls.
        function keepLegible() {
          const svg = byId("map").querySelector("svg");
          if (!svg || !svg.viewBox.baseVal) return;
          const box = svg.viewBox.baseVal;
          svg.style.minWidth = box.width * \(SVGMap.smallestLegibleScale) + "px";
          svg.style.minHeight = box.height * \(SVGMap.smallestLegibleScale) + "px";
        }
        function draw(message) {
          const s = message.snapshot;
          if (message.hasMap) { byId("map").innerHTML = s.svg; layerNodes = []; keepLegible(); }
          if (message.hasLayer) layer = s.layer;
          if (message.hasMap || message.hasLayer) placeLayer();
          byId("title").textContent = s.title;
          document.title = s.title;
          const head = document.createElement("tr");
          for (const c of s.columns) head.appendChild(text("th", c));
          byId("table").tHead.replaceChildren(head);
          const rows = s.rows.map((r) => {
            const tr = document.createElement("tr");
            tr.className = r.status;
            for (const c of r.cells) tr.appendChild(text("td", c));
            if (r.beacon !== null && r.beacon !== undefined) tr.id = "beacon-" + r.beacon;
            return tr;
          });
          byId("table").tBodies[0].replaceChildren(...rows);
          for (const b of s.beacons) {
            for (const e of [byId("beacon-" + b.id), byId("m-" + b.id)]) {
              if (!e) continue;
              e.dataset.state = b.state;
              e.classList.remove("active", "idle", "problem");
              e.classList.add(b.status);
            }
          }
          byId("summary").textContent = s.summary;
          byId("messages").textContent = s.messages.join("\\n");
          // From the change in the run to the DOM showing it, ms (the newest 10000).
          const latencies = window.beaconLatencies || (window.beaconLatencies = []);
          latencies.push(performance.timeOrigin + performance.now() - message.sent);
          if (latencies.length > 10000) latencies.shift();
        }
        function connect() {
          const socket = new WebSocket("ws://" + location.host + "/live");
          socket.onopen = () => { byId("connection").textContent = "live"; byId("connection").className = ""; };
          socket.onmessage = (event) => draw(JSON.parse(event.data));
          socket.onclose = () => {
            byId("connection").textContent = "disconnected: retrying";
            byId("connection").className = "offline";
            setTimeout(connect, 1000);
          };
        }
        connect();
        """
}
