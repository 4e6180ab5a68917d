// SPDX-License-Identifier: GPL-2.0-or-later
@testable import BeaconWeb
import NIOCore
import Foundation
import LiveView
import Synchronization
import Testing

/// The live page is fed by the run's events, not by sampling: each change is published when it
/// happens, stamped with the time it happened, and a burst of changes wakes the server once.
/// Every wait is for a message, bounded only against hangs.
@Suite struct LivePageFeedTests {
    static func snapshot(_ summary: String, svg: String = "<svg/>", layer: String = "") -> LivePageSnapshot {
        LivePageSnapshot(screen: LiveScreen(title: "t", columns: [LiveColumn("A")], rows: [], summary: summary), beacons: [], svg: svg, layer: layer)
    }

    /// One viewer's messages, decoded.
    struct Viewer {
        var messages: AsyncStream<String>.AsyncIterator
        let keep: AsyncStream<String>.Continuation

        init(_ viewers: LivePageViewers) {
            let (stream, keep) = AsyncStream<String>.makeStream()
            self.keep = keep
            messages = stream.makeAsyncIterator()
            let added = viewers.add(send: { keep.yield(String(buffer: $0)) }, close: { keep.finish() })
            #expect(added != nil, "the page is open")
        }

        /// The next message (nil when none came within the hang bound).
        mutating func next() async throws -> [String: Any]? {
            let bounded = Task { [keep] in
                try? await Task.sleep(for: .seconds(30))
                if !Task.isCancelled { keep.finish() }
            }
            defer { bounded.cancel() }
            guard let text = await messages.next() else { return nil }
            return try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        }
    }

    @Test func aBurstOfChangesWakesTheFollowerOnceWithTheFirstChangesTime() async throws {
        let changes = LivePageChanges()
        let before = Date()
        for _ in 0..<160 { changes.changed() }
        let after = Date()
        var wakeUps = changes.signals.makeAsyncIterator()
        #expect(await wakeUps.next() != nil)
        let first = try #require(changes.take())
        #expect(first >= before && first <= after)
        #expect(changes.take() == nil, "taken up once")
        // No second wake-up is waiting: the stream ends right after the one there was.
        changes.finish()
        #expect(await wakeUps.next() == nil)
    }

    @Test func eachChangeIsPublishedWhenItHappensWithNoSampling() async throws {
        let server = try await LivePageServer.start(WebAddress(port: 0))
        let state = Mutex((shown: 0, built: 0))
        let changes = LivePageChanges()
        let following = server.follow(changes) {
            let shown = state.withLock { s in s.built += 1; return s.shown }
            return Self.snapshot("state \(shown)")
        }
        // The state at the start is there before follow returns (a viewer gets it at once).
        #expect(server.viewers.published.count == 1)
        var viewer = Viewer(server.viewers)
        let first = try #require(await viewer.next())
        #expect((first["snapshot"] as? [String: Any])?["summary"] as? String == "state 0")
        for i in 1...5 {
            state.withLock { $0.shown = i }
            // `sent` is when the change happened (0.1 ms in JSON), not when it was taken up.
            let before = (Date().timeIntervalSince1970 * 10_000).rounded(.down) / 10
            changes.changed()
            let after = (Date().timeIntervalSince1970 * 10_000).rounded(.up) / 10
            let message = try #require(await viewer.next())
            #expect((message["snapshot"] as? [String: Any])?["summary"] as? String == "state \(i)")
            let sent = try #require(message["sent"] as? Double)
            #expect(sent >= before && sent <= after, "the change at \(before)…\(after), sent says \(sent)")
            #expect(message["hasMap"] as? Bool == false, "the map is the same: not sent again")
        }
        // One snapshot per change and one at the start: nothing samples the state in between.
        #expect(state.withLock { $0.built } == 6)
        following.cancel()
        await server.stop()
    }

    @Test func aNewLayerTravelsWithoutTheMapAndAnUnchangedOneIsNotSent() async throws {
        let viewers = LivePageViewers()
        viewers.publish(Self.snapshot("a", svg: "<svg>plan</svg>", layer: "<g id=\"markers\">1</g>"), changedAt: Date())
        var viewer = Viewer(viewers)
        let first = try #require(await viewer.next())
        #expect(first["hasMap"] as? Bool == true && first["hasLayer"] as? Bool == true, "a viewer that connects gets everything")
        viewers.publish(Self.snapshot("b", svg: "<svg>plan</svg>", layer: "<g id=\"markers\">2</g>"), changedAt: Date())
        let moved = try #require(await viewer.next())
        let snapshot = try #require(moved["snapshot"] as? [String: Any])
        #expect(moved["hasMap"] as? Bool == false && snapshot["svg"] as? String == "")
        #expect(moved["hasLayer"] as? Bool == true && snapshot["layer"] as? String == "<g id=\"markers\">2</g>")
        viewers.publish(Self.snapshot("c", svg: "<svg>plan</svg>", layer: "<g id=\"markers\">2</g>"), changedAt: Date())
        let same = try #require(await viewer.next())
        #expect(same["hasMap"] as? Bool == false && same["hasLayer"] as? Bool == false)
        #expect((same["snapshot"] as? [String: Any])?["layer"] as? String == "")
    }
}
