// SPDX-License-Identifier: GPL-2.0-or-later

/// Bluetooth SIG company identifiers of common controller makers (Assigned Numbers, "Company
/// Identifiers"; checked against Bumble's `bumble/company_ids.py`), for `doctor`'s manufacturer
/// line. Unlisted identifiers print as the number alone.
enum CompanyNames {
    static let known: [UInt16: String] = [
        0x0002: "Intel",
        0x000A: "Qualcomm Technologies International (CSR)",
        0x000D: "Texas Instruments",
        0x000F: "Broadcom",
        0x001D: "Qualcomm",
        0x0025: "NXP",
        0x0030: "STMicroelectronics",
        0x0046: "MediaTek",
        0x0059: "Nordic Semiconductor",
        0x005D: "Realtek",
        0x0060: "RivieraWaves",
        0x0131: "Cypress Semiconductor (Infineon)",
        0x02E5: "Espressif",
        // BlueZ's emulator (btvirt, the kernel's hci_vhci tests) reports this one.
        0x05F1: "The Linux Foundation",
        // The SIG keeps 0xFFFF for tests and internal use; the built-in virtual controller uses it.
        0xFFFF: "(none: the value for tests and internal use)",
    ]

    /// `0x000F Broadcom`, or `0x1234` when the identifier is not in the table.
    static func describe(_ id: UInt16) -> String {
        let hex = String(id, radix: 16, uppercase: true)
        let code = "0x" + String(repeating: "0", count: 4 - hex.count) + hex
        return known[id].map { "\(code) \($0)" } ?? code
    }
}
