// SPDX-License-Identifier: GPL-2.0-or-later
import HCI
import Testing

@Suite("Status codes and versions")
struct StatusAndVersionTests {
    @Test func everyAssignedCodeHasANameAndAnExplanation() {
        // Core Vol 1 Part F §1.3 assigns 0x00–0x48 except the reserved 0x2B, 0x31, 0x33 and the
        // retired 0x3F: exactly those codes are named, each once.
        let assigned = Set(UInt8(0x00)...UInt8(0x48)).subtracting([0x2B, 0x31, 0x33, 0x3F])
        #expect(Set(HCIStatus.allNamed.map(\.rawValue)) == assigned)
        #expect(HCIStatus.allNamed.count == assigned.count, "a code listed twice")
        for status in HCIStatus.allNamed {
            #expect(!(status.name ?? "").isEmpty, "\(status.rawValue) has no name")
            #expect((status.explanation?.description ?? "").count > 20, "\(status) has no usable explanation")
        }
        for reserved: UInt8 in [0x2B, 0x31, 0x33, 0x3F, 0x49, 0xFF] {
            #expect(HCIStatus(rawValue: reserved).name == nil)
        }
    }

    @Test func theCodesABeaconMeetsSayWhatToDo() {
        #expect(HCIStatus.unknownCommand.name == "Unknown HCI Command")
        #expect(HCIStatus.unknownCommand.explanation?.description.contains("extended advertising") == true)
        #expect(HCIStatus.memoryCapacityExceeded.rawValue == 0x07)
        #expect(HCIStatus.memoryCapacityExceeded.explanation?.description.contains("advertising set") == true)
        #expect(HCIStatus.commandDisallowed.rawValue == 0x0C)
        #expect(HCIStatus.commandDisallowed.explanation?.pieces.contains(.term(.stop)) == true)
        #expect(HCIStatus.commandDisallowed.explanation?.description.contains("legacy and extended") == true)
        #expect(HCIStatus.unsupportedFeatureOrParameter.rawValue == 0x11)
        #expect(HCIStatus.invalidCommandParameters.rawValue == 0x12)
        #expect(HCIStatus.invalidCommandParameters.explanation?.description.contains("range") == true)
        #expect(HCIStatus.advertisingTimeout.rawValue == 0x3C)
        #expect(HCIStatus.unknownAdvertisingIdentifier.rawValue == 0x42)
        #expect(HCIStatus.limitReached.rawValue == 0x43)
        #expect(HCIStatus.packetTooLong.rawValue == 0x45)
    }

    @Test func descriptions() {
        #expect(HCIStatus.commandDisallowed.description == "Command Disallowed (0x0C)")
        #expect(HCIStatus(rawValue: 0x2B).description == "Reserved error code (0x2B)")
        #expect(HCIStatus(rawValue: 0x3F).description == "Previously used code (0x3F)")
        #expect(HCIStatus.limitReached.userMessage.description.hasPrefix("Limit Reached (0x43): "))
        #expect(HCIStatus(rawValue: 0x90).userMessage.description.contains("does not know"))
    }

    /// Advice fits the command that failed: a failed Read Local Version Information does not
    /// speak of advertising sets, a failed LE command still does.
    @Test func adviceFitsTheFailedCommand() {
        let readVersion = HCICommandError.failed(command: "Read Local Version Information", opcode: HCIOpcode(rawValue: 0x1001),
                                                 status: .limitReached).description
        let createSet = HCICommandError.failed(command: "LE Set Extended Advertising Parameters", opcode: HCIOpcode(rawValue: 0x2036),
                                               status: .limitReached).description
        #expect(!readVersion.contains("advertising sets"), "\(readVersion)")
        #expect(createSet.contains("advertising sets"), "\(createSet)")
        for status in HCIStatus.allNamed {
            let message = status.userMessage(for: HCIOpcode(rawValue: 0x1001)).description
            #expect(!message.contains("advertising set") && !message.contains("extended advertising"), "\(message)")
        }
    }

    @Test func versions() {
        #expect(HCIVersion(rawValue: 0x06).name == "4.0")
        #expect(HCIVersion.v5_0.rawValue == 0x09)
        #expect(HCIVersion(rawValue: 0x0D).name == "5.4")
        #expect(HCIVersion(rawValue: 0x0E).name == "6.0")
        #expect(HCIVersion.v4_2 < .v5_0)
        #expect(HCIVersion.v5_0.description == "Bluetooth 5.0 (0x09)")
        #expect(HCIVersion(rawValue: 0x30).description == "unknown version (0x30)")
    }
}
