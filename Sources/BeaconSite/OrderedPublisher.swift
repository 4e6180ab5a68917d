// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconMQTT
import Synchronization

/// Publishes one message at a time, in the order they were made, so a retained state is never
/// overtaken by an older one. A message that cannot be sent (QoS 0 while the broker is away) is
/// dropped: agent and controller republish what matters on every reconnection. A message the
/// broker refuses (MQTT 5 PUBACK reason 0x80 or above: an ACL, a quota) is handed to `refused`,
/// with whether it is the first refusal of its kind (its topic's first two levels and the
/// reason code), so that the owner says each kind once.
final class OrderedPublisher: Sendable {
    /// One refusal: the topic, the broker's reason code and words, and whether none of its
    /// kind came before.
    struct Refusal: Sendable, Equatable {
        var topic: String
        var code: Int32
        var reason: String
        var firstOfItsKind: Bool

        /// The topic's first two levels (`homeassistant/switch`, `beacon/lab`), which a line
        /// about the refusal names as where further refusals are not repeated.
        var kind: String { Self.kind(of: topic) }

        static func kind(of topic: String) -> String {
            topic.split(separator: "/", omittingEmptySubsequences: false).prefix(2).joined(separator: "/")
        }
    }

    private struct Outgoing: Sendable {
        var topic: String
        var payload: [UInt8]
        var qos: MQTTQoS
        var retain: Bool
    }

    private let outbox: AsyncStream<Outgoing>.Continuation
    private let worker: Task<Void, Never>

    init(_ client: MQTTClient, refused: @escaping @Sendable (Refusal) -> Void = { _ in }) {
        let (stream, outbox) = AsyncStream.makeStream(of: Outgoing.self, bufferingPolicy: .unbounded)
        self.outbox = outbox
        worker = Task {
            var kinds: Set<String> = []
            for await message in stream {
                do throws(MQTTError) {
                    _ = try await client.publish(topic: message.topic, payload: message.payload, qos: message.qos, retain: message.retain)
                } catch {
                    guard case .publishRefused(let topic, let code, let reason) = error else { continue }
                    var refusal = Refusal(topic: topic, code: code, reason: reason, firstOfItsKind: false)
                    refusal.firstOfItsKind = kinds.insert("\(code) \(refusal.kind)").inserted
                    refused(refusal)
                }
            }
        }
    }

    func send(_ topic: String, _ payload: [UInt8], qos: MQTTQoS = .atLeastOnce, retain: Bool) {
        outbox.yield(Outgoing(topic: topic, payload: payload, qos: qos, retain: retain))
    }

    func send(_ topic: String, text: String, retain: Bool) { send(topic, Array(text.utf8), retain: retain) }

    /// Sends nothing more; waits until what was queued is sent or refused (a disconnected client
    /// refuses at once).
    func finish() async {
        outbox.finish()
        await worker.value
    }
}

extension MQTTClient {
    /// A clean goodbye: `messages` published retained (QoS 1) in order, waiting at most `bound`
    /// for the broker (a stop is honoured within a second whatever the broker does), then
    /// DISCONNECT, which ends the client's events.
    func farewell(_ messages: [(topic: String, payload: [UInt8])], within bound: Duration = .milliseconds(500)) {
        Task {
            let sending = Task {
                for message in messages {
                    _ = try? await self.publish(topic: message.topic, payload: message.payload, qos: .atLeastOnce, retain: true)
                }
            }
            let timer = Task { try? await Task.sleep(for: bound); sending.cancel() }
            _ = await sending.value
            timer.cancel()
            self.disconnect()
        }
    }
}

/// Where a publisher's refusals go: set once the publisher's owner is initialised (the handler
/// needs the owner), called from the publisher's task.
final class RefusalSink: Sendable {
    private let handler = Mutex<(@Sendable (OrderedPublisher.Refusal) -> Void)?>(nil)

    var handle: (@Sendable (OrderedPublisher.Refusal) -> Void)? {
        get { handler.withLock { $0 } }
        set { handler.withLock { $0 = newValue } }
    }
}
