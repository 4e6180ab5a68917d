// SPDX-License-Identifier: GPL-2.0-or-later

/// Times in scenario files, in ``DurationSyntax`` (the command line's grammar): a number of
/// seconds (`35`, `0.5`) or with units (`35s`, `500ms`, `2m`, `1m30s`).
public enum ScenarioTime {
    /// The longest time a scenario may name: one week, in seconds.
    static let maximum = 7.0 * 24 * 3600
}
