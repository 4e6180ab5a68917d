// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation

/// The package root: the nearest directory above this file holding Package.swift. Tests read the
/// shipped profiles and harness scripts from it, and run the `beacon` executable in it.
public enum PackageRoot {
    public static let url: URL = {
        let start = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        var url = start
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
            url.deleteLastPathComponent()
        }
        return start
    }()

    /// `relative` (such as `profiles/room-2m.yaml`) below the package root.
    public static func path(_ relative: String) -> String { url.appendingPathComponent(relative).path }
}
