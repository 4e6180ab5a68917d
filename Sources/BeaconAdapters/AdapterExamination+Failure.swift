// SPDX-License-Identifier: GPL-2.0-or-later
import HCI
import HCITransport

extension AdapterExamination {
    /// Why an examined adapter cannot be used; its ``description`` is the underlying error's
    /// words, which name the adapter and say what to do.
    public enum Failure: Error, Sendable, CustomStringConvertible, TermedTextConvertible {
        /// No adapter could be chosen (none of that name, or no kernel adapter at all), with
        /// the front end's advice for that case, if any.
        case notChosen(TransportError, advice: String?)
        /// It could not be opened.
        case open(AdapterOpenError)
        /// Its probe through the kernel's management API failed.
        case managementProbe(MgmtControllerError)
        /// Its probe with HCI commands failed.
        case hciProbe(HCIControllerError)

        /// ``termedText`` in words.
        public var description: String { termedText.description }

        /// The underlying error's text, its advice's terms kept for the front end to name.
        public var termedText: TermedText {
            switch self {
            case let .notChosen(e, advice): e.termedText + TermedText(advice ?? "")
            case .open(let e): e.termedText
            case .managementProbe(let e): e.termedText
            case .hciProbe(let e): e.termedText
            }
        }

        /// Whether it failed only because the kernel has no Bluetooth support (a socket of
        /// family AF_BLUETOOTH cannot be made), which the host's diagnosis says once for all.
        public var isNoKernelBluetooth: Bool {
            let transport: TransportError
            switch self {
            case .notChosen(let e, _): transport = e
            case .open(.transport(let e)): transport = e
            default: return false
            }
            if case let .system(e, _) = transport { return e.errno == .addressFamilyNotSupported }
            return false
        }
    }

    /// Why the management API's view of a kernel adapter could not be had; its ``description``
    /// says it in words.
    public enum ManagementViewFailure: Error, Sendable, CustomStringConvertible, TermedTextConvertible {
        /// Its management API could not be opened.
        case open(AdapterOpenError)
        /// It opened without a management API session.
        case noManagementSession
        /// The probe through it failed.
        case probe(MgmtControllerError)
        /// It answered without advertising features.
        case noAdvertisingFeatures

        /// ``termedText`` in words.
        public var description: String { termedText.description }

        /// The underlying error's text, its advice's terms kept for the front end to name.
        public var termedText: TermedText {
            switch self {
            case .open(let e): e.termedText
            case .noManagementSession: "the adapter opened without its management API"
            case .probe(let e): e.termedText
            case .noAdvertisingFeatures: "the management API gave no advertising features"
            }
        }
    }
}
