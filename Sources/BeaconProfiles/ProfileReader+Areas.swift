// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconRadio
import Yams

extension ProfileReader {
    /// Reads `areas:`, a list of rooms: `- {name: hall, walls: [[0, 0], [4, 0], [4, 3], [0, 3]]}`,
    /// each a name and a closed polygon of at least three corners (metres, the beacons' frame),
    /// whose walls do not cross. Every problem is reported; only a list without any is returned.
    func readAreas(_ field: Field) -> [Area] {
        guard let list = field.value.sequence, !list.isEmpty else {
            let found = field.value.isNull ? "it has no value" : field.value.sequence != nil ? "it is empty" : "not \(field.value.shapeName)"
            sink.report(field.value, field: "areas", "must be a list of rooms such as `- {name: hall, walls: [[0, 0], [4, 0], [4, 3]]}`; \(found)")
            return []
        }
        var areas: [Area] = []
        var valid = true
        var names: Set<String> = []
        for (index, item) in list.enumerated() {
            let path = "areas[\(index)]"
            guard let mapping = item.mapping else {
                sink.report(item, field: path, "each area must be a mapping with `name:` and `walls:`, not \(item.shapeName)")
                valid = false
                continue
            }
            let keys = fields(of: mapping, at: item, allowed: ProfileKeys.area, path: path)
            var name: String? = nil
            if let f = keys["name"] {
                if let text = scalar(f, path: "\(path).name", allowed: "must be the area's name (text)"), checkName(text, at: f.value) {
                    if names.insert(text).inserted { name = text } else {
                        sink.report(f.value, field: "\(path).name", "names another area already; each area needs its own name")
                    }
                }
            } else {
                missing("\(path).name", in: item, "an area needs a name (text)")
            }
            var corners: [Point]? = nil
            if let f = keys["walls"] { corners = wallCorners(f, path: "\(path).walls") } else {
                missing("\(path).walls", in: item, "the corners of the room's walls, such as `[[0, 0], [4, 0], [4, 3]]` (metres)")
            }
            guard let name, let corners else { valid = false; continue }
            let area = Area(name: name, corners: corners)
            if let (i, j) = area.firstCrossing {
                sink.report(keys["walls"]!.value, field: "\(path).walls",
                            "must not cross itself: the wall from corner \(i + 1) crosses the wall from corner \(j + 1); list the corners in order around the room")
                valid = false
                continue
            }
            areas.append(area)
        }
        return valid ? areas : []
    }

    /// The corners of `walls:`: a list of 3 to ``Area/maximumCorners`` pairs `[x, y]` within the
    /// beacons' coordinate range; `nil` after reporting every problem.
    private func wallCorners(_ field: Field, path: String) -> [Point]? {
        let shape = "a list of at least 3 corners `[x, y]` (metres), such as `[[0, 0], [4, 0], [4, 3]]`"
        guard let list = field.value.sequence else {
            sink.report(field.value, field: path, "must be \(shape), not \(field.value.shapeName)")
            return nil
        }
        guard (3...Area.maximumCorners).contains(list.count) else {
            sink.report(field.value, field: path, "must have from 3 to \(Area.maximumCorners) corners, not \(list.count)")
            return nil
        }
        var corners: [Point] = []
        var valid = true
        for (index, item) in list.enumerated() {
            let cornerPath = "\(path)[\(index)]"
            guard let pair = item.sequence, pair.count == 2 else {
                sink.report(item, field: cornerPath, "each corner must be a pair `[x, y]` (metres), not \(item.sequence.map { "a list of \($0.count)" } ?? item.shapeName)")
                valid = false
                continue
            }
            let x = number(Field(key: pair[0], value: pair[0]), path: "\(cornerPath).x", range: PositionPlan.coordinateRange, unit: "metres")
            let y = number(Field(key: pair[1], value: pair[1]), path: "\(cornerPath).y", range: PositionPlan.coordinateRange, unit: "metres")
            guard let x, let y else { valid = false; continue }
            corners.append(Point(x: x, y: y))
        }
        return valid ? corners : nil
    }
}
