// SPDX-License-Identifier: GPL-2.0-or-later

/// Numbers as people write them: `100` rather than `100.0`, `152.5` as is.
enum NumberText {
    static func string(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }
}
