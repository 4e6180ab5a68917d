// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconMQTT

/// Publishes one message at a time, in the order they were made, so a retained state is never
/// overtaken by an older one. A message that cannot be sent (QoS 0 while the broker is away) is
/// dropped: agent and controller republish what matters on every reconnection.
final class OrderedPublisher: Sendable {
    private struct Outgoing: Sendable {
        var topic: String
        var payload: [UInt8]
        var qos: MQTTQoS
        var retain: Bool
    }

    private let outbox: AsyncStream<Outgoing>.Continuation
    private let worker: Task<Void, Never>

    init(_ client: MQTTClient) {
        let (stream, outbox) = AsyncStream.makeStream(of: Outgoing.self, bufferingPolicy: .unbounded)
        self.outbox = outbox
        worker = Task {
            for await message in stream {
                _ = try? await client.publish(topic: message.topic, payload: message.payload, qos: message.qos, retain: message.retain)
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
