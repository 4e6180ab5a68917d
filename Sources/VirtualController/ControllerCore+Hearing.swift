// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI

/// Hearing the shared air (see ``AirLink``): while scanning is on, each advertising event another
/// controller sent becomes an advertising report of the scanning family the host chose — LE
/// Advertising Report for legacy scanning, which hears legacy PDUs only (Core Vol 6 Part B
/// §4.4.3), LE Extended Advertising Report for extended scanning, which hears both — when the
/// event masks let it through. Passive scanning only: no scan requests, so no SCAN_RSP.
extension ControllerCore {
    /// Reports a real controller would drop for want of buffers once the host stops reading.
    static let reportQueueLimit = 4096

    mutating func hear(_ t: AirTransmission, rssi: Int8, at now: Duration) {
        advance(to: now)
        guard scan.isEnabled, eventMask.contains(.leMeta), outgoing.count < Self.reportQueueLimit else { return }
        if family == .extended {
            guard leEventMask.contains(.extendedAdvertisingReport) else { return }
            queue(LEExtendedAdvertisingReportEvent(reports: [Self.extendedReport(t, rssi: rssi)]).packet)
        } else {
            guard leEventMask.contains(.advertisingReport), t.pdu != .advExtInd,
                  let data = AdvertisingPayload(t.data) else { return }
            let type: LEAdvertisingReportEvent.EventType = switch t.pdu {
            case .advInd: .advInd
            case .advDirectInd: .advDirectInd
            case .advScanInd: .advScanInd
            default: .advNonconnInd
            }
            queue(LEAdvertisingReportEvent(reports: [.init(eventType: type, addressType: t.addressType, address: t.address,
                                                           data: data, rssi: rssi)]).packet)
        }
    }

    /// One report of an extended scan. Data beyond one report's 229 octets is cut, with Data
    /// Status 0b10 (incomplete, truncated); beacons never come near it.
    static func extendedReport(_ t: AirTransmission, rssi: Int8) -> LEExtendedAdvertisingReportEvent.Report {
        var type: LEExtendedAdvertisingReportEvent.EventType = switch t.pdu {
        case .advInd: [.connectable, .scannable, .legacyPDU]
        case .advDirectInd: [.connectable, .directed, .legacyPDU]
        case .advScanInd: [.scannable, .legacyPDU]
        case .advNonconnInd: [.legacyPDU]
        case .advExtInd: []
        }
        let maximum = 229
        if t.data.count > maximum { type.insert(LEExtendedAdvertisingReportEvent.EventType(rawValue: 0b10 << 5)) }
        let legacy = t.pdu != .advExtInd
        return .init(eventType: type, addressType: t.addressType, address: t.address,
                     primaryPHY: .le1M, secondaryPHY: legacy ? .none : .le1M, sid: legacy ? 0xFF : 0,
                     txPower: legacy ? LEReportValues.txPowerNotAvailable : t.txPower, rssi: rssi,
                     data: Array(t.data.prefix(maximum)))
    }
}

extension VirtualController {
    /// Another controller's advertising event reached this one with `rssi` (dBm): reported to the
    /// host if scanning is on (see ``AirLink``).
    public func hear(_ transmission: AirTransmission, rssi: Int8) {
        let now = clock.now
        let queued = core.withLock { core in
            let before = core.outgoing.count
            core.hear(transmission, rssi: rssi, at: now)
            return core.outgoing.count > before
        }
        if queued, let signal = eventQueued.withLock({ $0 }) { signal() }
    }

    /// Whether scanning is on (legacy or extended).
    public var isScanning: Bool { core.withLock { $0.scan.isEnabled } }
}
