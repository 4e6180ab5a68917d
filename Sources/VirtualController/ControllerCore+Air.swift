// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI

/// Computing the air: every advertising event that started before a given time, in time order,
/// from the state the commands left. Nothing runs in the background; whoever reads the log (or
/// sends a command) brings the air up to the clock first.
extension ControllerCore {
    /// What happens next on the air.
    private enum Happening {
        case event(VirtualAdvertiser)
        case timeout(VirtualAdvertiser)
    }

    /// Records every advertising event that starts before `now`, and stops advertisers whose
    /// duration or event limit is reached.
    mutating func advance(to now: Duration) {
        guard now > computedUntil else { return }
        skipUnobservedEvents(before: now)
        // Sets are only disabled while catching up, never created: sort the handles once.
        let handles = sets.keys.sorted()
        while let (time, happening) = nextHappening(before: now, handles: handles) {
            switch happening {
            case let .event(advertiser): fire(advertiser, at: time)
            case let .timeout(advertiser): stop(advertiser, status: .advertisingTimeout)
            }
        }
        computedUntil = now
    }

    /// When an advertising set may next stop by itself and so raise LE Advertising Set
    /// Terminated (its Duration ends, or its next event may be its last under
    /// Max_Extended_Advertising_Events), on the controller's clock; `nil`: no event of the
    /// controller's own is due. The legacy advertiser stops without an event.
    var nextTermination: Duration? {
        var earliest: Duration?
        for set in sets.values {
            guard let enabled = set.enabled else { continue }
            if let ends = enabled.ends { earliest = min(earliest ?? ends, ends) }
            if enabled.maxEvents > 0 { earliest = min(earliest ?? enabled.schedule.nextEvent, enabled.schedule.nextEvent) }
        }
        return earliest
    }

    /// The earliest event or timeout before `now`; ties go to the legacy advertiser, then to
    /// the lowest handle, so the log is deterministic.
    private func nextHappening(before now: Duration, handles: [UInt8]) -> (Duration, Happening)? {
        var best: (Duration, Happening)? = nil
        func consider(_ enabled: EnabledAdvertising?, _ advertiser: VirtualAdvertiser) {
            guard let enabled else { return }
            var candidate = (enabled.schedule.nextEvent, Happening.event(advertiser))
            if let ends = enabled.ends, ends <= enabled.schedule.nextEvent { candidate = (ends, .timeout(advertiser)) }
            guard candidate.0 < now else { return }
            if best == nil || candidate.0 < best!.0 { best = candidate }
        }
        consider(legacy.enabled, .legacy)
        for handle in handles { consider(sets[handle]?.enabled, .set(handle)) }
        return best
    }

    /// One advertising event: logged, then the schedule moves on.
    private mutating func fire(_ advertiser: VirtualAdvertiser, at time: Duration) {
        switch advertiser {
        case .legacy:
            let p = legacy.parameters
            let pdu = AirPDU(legacy: p.advertisingType)
            if let (address, type) = advertiserAddress(own: p.ownAddressType, random: randomAddress) {
                airLog.append(time: time, advertiser: .legacy, pdu: pdu, address: address, addressType: type,
                              data: pdu.carriesData ? legacy.data : [], txPower: configuration.advertisingChannelTxPower,
                              scanResponse: p.advertisingType == .scannableUndirected || p.advertisingType == .connectableUndirected ? legacy.scanResponseData : [])
            }
            legacy.enabled?.schedule.advance()
        case let .set(handle):
            guard var set = sets[handle], var enabled = set.enabled else { return }
            let pdu = AirPDU(properties: set.parameters.eventProperties)
            if let (address, type) = advertiserAddress(own: set.parameters.ownAddressType, random: set.randomAddress) {
                airLog.append(time: time, advertiser: advertiser, pdu: pdu, address: address, addressType: type,
                              data: pdu.carriesData ? set.data : [], txPower: set.selectedTxPower,
                              scanResponse: set.parameters.eventProperties.contains(.scannable) ? set.scanResponseData : [])
            }
            enabled.schedule.advance()
            enabled.completedEvents += 1
            set.enabled = enabled
            sets[handle] = set
            if enabled.maxEvents > 0, enabled.completedEvents >= enabled.maxEvents { stop(advertiser, status: .limitReached) }
        }
    }

    /// The advertiser stops by itself. A set tells the host with LE Advertising Set Terminated
    /// (§7.7.65.18: Advertising Timeout 0x3C for Duration, Limit Reached 0x43 for
    /// Max_Extended_Advertising_Events), when the event masks let it through.
    private mutating func stop(_ advertiser: VirtualAdvertiser, status: HCIStatus) {
        switch advertiser {
        case .legacy:
            // High duty cycle directed advertising that found no connection; the LE Connection
            // Complete (0x3C) a real controller sends is not modelled.
            legacy.enabled = nil
        case let .set(handle):
            let completed = sets[handle]?.enabled?.completedEvents ?? 0
            sets[handle]?.enabled = nil
            if eventMask.contains(.leMeta), leEventMask.contains(.advertisingSetTerminated) {
                queue(LEAdvertisingSetTerminatedEvent(status: status, handle: handle,
                                                      completedEvents: UInt8(clamping: completed)).packet)
            }
        }
    }

    /// After a long unobserved stretch, an advertiser with no end would produce more events
    /// than the log keeps: count the oldest ones without recording them, so catching up costs
    /// at most one log's worth of entries per advertiser.
    private mutating func skipUnobservedEvents(before now: Duration) {
        let keep = airLog.capacity
        func skip(_ enabled: inout EnabledAdvertising, _ advertiser: VirtualAdvertiser) {
            guard enabled.ends == nil, enabled.maxEvents == 0, enabled.schedule.nextEvent < now else { return }
            // A lower bound on the pending events: with advDelay each one may take 10 ms longer.
            let longest = enabled.schedule.interval + (enabled.schedule.delay == nil ? .zero : .milliseconds(10))
            let pending = Int((now - enabled.schedule.nextEvent) / longest)
            guard pending > 2 * keep else { return }
            let skipped = pending - keep
            if enabled.schedule.delay == nil {
                enabled.schedule.nextEvent += enabled.schedule.interval * skipped
            } else {
                for _ in 0..<skipped { enabled.schedule.advance() }
            }
            enabled.completedEvents += skipped
            airLog.skip(skipped, advertiser: advertiser)
        }
        if var enabled = legacy.enabled {
            skip(&enabled, .legacy)
            legacy.enabled = enabled
        }
        for handle in sets.keys.sorted() {
            guard var enabled = sets[handle]?.enabled else { continue }
            skip(&enabled, .set(handle))
            sets[handle]?.enabled = enabled
        }
    }
}
