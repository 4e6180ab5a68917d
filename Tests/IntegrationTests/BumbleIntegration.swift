// SPDX-License-Identifier: GPL-2.0-or-later
import Testing

/// End-to-end tests against a real third-party controller: Bumble 0.0.236 through
/// `Tests/Harness/bumble_link.py`. One suite, serialized: every test times advertising events on
/// a 2-core CI machine, and harnesses running side by side would steal each other's timer slots.
@Suite("Bumble integration", .serialized)
struct BumbleIntegration {}
