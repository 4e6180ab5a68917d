// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// The status byte of a command reply or event: 0x00 success, anything else a Controller error
/// code (Core Vol 1 Part F §1.3 "List of error codes").
///
/// A struct rather than an enum so a code newer than this table still round-trips; `name` and
/// `explanation` cover every code the Core specification 6.0 assigns.
@frozen
public struct HCIStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    @inlinable public var isSuccess: Bool { rawValue == 0 }

    public static let success = HCIStatus(rawValue: 0x00)
    public static let unknownCommand = HCIStatus(rawValue: 0x01)
    public static let unknownConnectionIdentifier = HCIStatus(rawValue: 0x02)
    public static let hardwareFailure = HCIStatus(rawValue: 0x03)
    public static let pageTimeout = HCIStatus(rawValue: 0x04)
    public static let authenticationFailure = HCIStatus(rawValue: 0x05)
    public static let pinOrKeyMissing = HCIStatus(rawValue: 0x06)
    public static let memoryCapacityExceeded = HCIStatus(rawValue: 0x07)
    public static let connectionTimeout = HCIStatus(rawValue: 0x08)
    public static let connectionLimitExceeded = HCIStatus(rawValue: 0x09)
    public static let synchronousConnectionLimitExceeded = HCIStatus(rawValue: 0x0A)
    public static let connectionAlreadyExists = HCIStatus(rawValue: 0x0B)
    public static let commandDisallowed = HCIStatus(rawValue: 0x0C)
    public static let rejectedLimitedResources = HCIStatus(rawValue: 0x0D)
    public static let rejectedSecurityReasons = HCIStatus(rawValue: 0x0E)
    public static let rejectedUnacceptableAddress = HCIStatus(rawValue: 0x0F)
    public static let connectionAcceptTimeout = HCIStatus(rawValue: 0x10)
    public static let unsupportedFeatureOrParameter = HCIStatus(rawValue: 0x11)
    public static let invalidCommandParameters = HCIStatus(rawValue: 0x12)
    public static let remoteUserTerminated = HCIStatus(rawValue: 0x13)
    public static let remoteLowResources = HCIStatus(rawValue: 0x14)
    public static let remotePowerOff = HCIStatus(rawValue: 0x15)
    public static let terminatedByLocalHost = HCIStatus(rawValue: 0x16)
    public static let repeatedAttempts = HCIStatus(rawValue: 0x17)
    public static let pairingNotAllowed = HCIStatus(rawValue: 0x18)
    public static let unknownLMPPDU = HCIStatus(rawValue: 0x19)
    public static let unsupportedRemoteFeature = HCIStatus(rawValue: 0x1A)
    public static let scoOffsetRejected = HCIStatus(rawValue: 0x1B)
    public static let scoIntervalRejected = HCIStatus(rawValue: 0x1C)
    public static let scoAirModeRejected = HCIStatus(rawValue: 0x1D)
    public static let invalidLinkLayerParameters = HCIStatus(rawValue: 0x1E)
    public static let unspecifiedError = HCIStatus(rawValue: 0x1F)
    public static let unsupportedLinkLayerParameterValue = HCIStatus(rawValue: 0x20)
    public static let roleChangeNotAllowed = HCIStatus(rawValue: 0x21)
    public static let linkLayerResponseTimeout = HCIStatus(rawValue: 0x22)
    public static let linkLayerProcedureCollision = HCIStatus(rawValue: 0x23)
    public static let lmpPDUNotAllowed = HCIStatus(rawValue: 0x24)
    public static let encryptionModeNotAcceptable = HCIStatus(rawValue: 0x25)
    public static let linkKeyCannotBeChanged = HCIStatus(rawValue: 0x26)
    public static let requestedQoSNotSupported = HCIStatus(rawValue: 0x27)
    public static let instantPassed = HCIStatus(rawValue: 0x28)
    public static let pairingWithUnitKeyNotSupported = HCIStatus(rawValue: 0x29)
    public static let differentTransactionCollision = HCIStatus(rawValue: 0x2A)
    public static let qosUnacceptableParameter = HCIStatus(rawValue: 0x2C)
    public static let qosRejected = HCIStatus(rawValue: 0x2D)
    public static let channelClassificationNotSupported = HCIStatus(rawValue: 0x2E)
    public static let insufficientSecurity = HCIStatus(rawValue: 0x2F)
    public static let parameterOutOfMandatoryRange = HCIStatus(rawValue: 0x30)
    public static let roleSwitchPending = HCIStatus(rawValue: 0x32)
    public static let reservedSlotViolation = HCIStatus(rawValue: 0x34)
    public static let roleSwitchFailed = HCIStatus(rawValue: 0x35)
    public static let extendedInquiryResponseTooLarge = HCIStatus(rawValue: 0x36)
    public static let simplePairingNotSupportedByHost = HCIStatus(rawValue: 0x37)
    public static let hostBusyPairing = HCIStatus(rawValue: 0x38)
    public static let noSuitableChannelFound = HCIStatus(rawValue: 0x39)
    public static let controllerBusy = HCIStatus(rawValue: 0x3A)
    public static let unacceptableConnectionParameters = HCIStatus(rawValue: 0x3B)
    public static let advertisingTimeout = HCIStatus(rawValue: 0x3C)
    public static let terminatedMICFailure = HCIStatus(rawValue: 0x3D)
    public static let connectionFailedToBeEstablished = HCIStatus(rawValue: 0x3E)
    public static let coarseClockAdjustmentRejected = HCIStatus(rawValue: 0x40)
    public static let type0SubmapNotDefined = HCIStatus(rawValue: 0x41)
    public static let unknownAdvertisingIdentifier = HCIStatus(rawValue: 0x42)
    public static let limitReached = HCIStatus(rawValue: 0x43)
    public static let operationCancelledByHost = HCIStatus(rawValue: 0x44)
    public static let packetTooLong = HCIStatus(rawValue: 0x45)
    public static let tooLate = HCIStatus(rawValue: 0x46)
    public static let tooEarly = HCIStatus(rawValue: 0x47)
    public static let insufficientChannels = HCIStatus(rawValue: 0x48)

    /// Every code the Core specification assigns a meaning to (reserved and "previously used"
    /// codes are left out).
    public static let allNamed: [HCIStatus] = (0x00...0x48).compactMap { code in
        let status = HCIStatus(rawValue: UInt8(code))
        return status.entry == nil ? nil : status
    }

    /// The specification's name for the code, or `nil` for a reserved or unknown one.
    public var name: String? { entry?.name }

    /// What the code means for someone running `beacon`, and what to try; `nil` for a reserved or
    /// unknown code. The actions it advises are ``FrontEndTerm``s, named by the front end that
    /// presents it (``TermedText/text(namedBy:)``).
    public var explanation: TermedText? { entry?.explanation }

    /// `Command Disallowed (0x0C)`.
    public var description: String {
        let code = "0x" + Hex.byte(rawValue)
        if let name { return "\(name) (\(code))" }
        return rawValue == 0x3F ? "Previously used code (\(code))" : "Reserved error code (\(code))"
    }

    /// `Command Disallowed (0x0C): advertising is already on …`: a message a user can act on.
    public var userMessage: TermedText { userMessage(explaining: explanation) }

    /// The message for a failure of the command `opcode`: advice that fits that command.
    public func userMessage(for opcode: HCIOpcode) -> TermedText { userMessage(explaining: explanation(for: opcode)) }

    private func userMessage(explaining explanation: TermedText?) -> TermedText {
        guard let explanation else {
            return "\(description): the controller returned an error code this version of beacon does not know"
        }
        return "\(description): \(explanation)"
    }
}
