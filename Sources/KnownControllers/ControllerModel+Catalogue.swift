// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

extension ControllerModel {
    /// The controllers users plug in, each fact from the public source its entry cites (issue 36).
    /// A value no source gives is the spec's default or a cautious estimate, and the entry's notes
    /// say which. Kernel line numbers are Linux 6.1.
    public static let catalogue: [ControllerModel] = [
        ControllerModel(
            id: "intel-ax201", title: "Intel AX201 class (AX200, AX201 laptop radios)",
            hciVersion: .v5_1, hciRevision: 0x0100, lmpSubversion: 0x0100, manufacturer: 0x0002,
            extendedAdvertising: true, advertisingSets: 6, maximumAdvertisingDataLength: 251, txPowerRange: nil,
            commandPackets: 2, commandLatency: .milliseconds(1),
            recognition: Recognition(lmpSubversions: [0x0100...0x0100], versions: HCIVersion.v5_1...HCIVersion.v5_1),
            sources: ["linux-bluetooth, Re: LE Advertising: Command Disallowed, 2020-11-12 (btmon from Reset): https://lore.kernel.org/linux-bluetooth/20201112121614.c5kko4iofg32ckxs@orac/"],
            notes: "6 sets and Num_HCI_Command_Packets alternating 1 and 2 as the trace shows; the maximum data length and TX power range are not in it (251 bytes assumed)."),
        ControllerModel(
            id: "intel-ax211-degraded", title: "Intel AX211 with firmware that fails extended advertising (ibt-0040-0041)",
            hciVersion: .v5_3, hciRevision: 0x0000, lmpSubversion: 0x0000, manufacturer: 0x0002,
            extendedAdvertising: true, advertisingSets: 12, maximumAdvertisingDataLength: 160, txPowerRange: nil,
            commandPackets: 2, commandLatency: .microseconds(2700),
            quirks: [.unknown(LESetExtendedAdvertisingData.opcode)],
            recognition: nil,
            sources: ["bluez/bluez issue 2270 (AX211 8087:0033, Opcode 0x2037 failed: -38)",
                      "opendroneid/transmitter-linux issue 12 (Killer AX1675i: maximum data length 160, ncmd 2, about 2.7 ms a command)"],
            notes: "The issue logs -38 from the kernel, which is the fallback of bt_to_errno for a status it does not map; Unknown HCI Command is how this model refuses. Sets and subversions are not in the sources (12 assumed). What it reports cannot tell it from an AX211 whose firmware works, so doctor does not name it; beacon's trial of extended advertising finds it out."),
        ControllerModel(
            id: "realtek-rtl8761b", title: "Realtek RTL8761B (USB dongles such as TP-Link UB500)",
            hciVersion: .v5_1, hciRevision: 0x097B, lmpSubversion: 0xEC43, manufacturer: 0x005D,
            extendedAdvertising: true, advertisingSets: 4, maximumAdvertisingDataLength: 251, txPowerRange: nil,
            commandPackets: 3, commandLatency: .milliseconds(1),
            recognition: Recognition(lmpSubversions: [0x8761...0x8761, 0xEC43...0xEC43], versions: HCIVersion.v5_1...HCIVersion.v5_1),
            sources: ["drivers/bluetooth/btrtl.c:179-193 (ROM: HCI 5.1, revision 0x000B, LMP subversion 0x8761)",
                      "TP-Link UB500 after firmware: revision 0x097B, subversion 0xEC43; fliclib-linux-hci issue 101 (ncmd 3)"],
            notes: "Revision and subversion change with the firmware the kernel loads (rtl_bt/rtl8761bu_fw.bin, Debian firmware-realtek). Sets and data length are not in the sources (4 and 251 assumed)."),
        ControllerModel(
            id: "broadcom-bcm4345c0", title: "Broadcom/Cypress BCM4345C0 (Raspberry Pi 3B+, 4, 5)",
            hciVersion: .v5_0, hciRevision: 0x017E, lmpSubversion: 0x6119, manufacturer: 0x0131,
            extendedAdvertising: false, advertisingSets: 0, maximumAdvertisingDataLength: 31, txPowerRange: nil,
            commandPackets: 1, commandLatency: .milliseconds(1),
            recognition: Recognition(lmpSubversions: [0x6119...0x6119], versions: HCIVersion.v4_2...HCIVersion.v5_0),
            sources: ["drivers/bluetooth/btbcm.c:501 (BCM4345C0, subversion 0x6119)",
                      "RPi-Distro/bluez-firmware issue 4 (Pi 3B+ on old firmware: 4.2, Broadcom 15, ncmd 1); canonical/checkbox issue 2130 (no extended advertising)",
                      "bluez/bluez issue 2269, raspberrypi/linux issue 7473 (recent kernels refuse Add Extended Advertising Data lengths; beacon sends exact ones)"],
            notes: "Pi 4 and 5 on current firmware report 5.0, revision 0x017E and Cypress (305); old firmware reports 4.2 and Broadcom (15)."),
        ControllerModel(
            id: "broadcom-bcm43438", title: "Broadcom BCM43438 (BCM43430A1: Raspberry Pi 3B, Zero W)",
            hciVersion: .v4_1, hciRevision: 0x01FC, lmpSubversion: 0x2209, manufacturer: 0x000F,
            extendedAdvertising: false, advertisingSets: 0, maximumAdvertisingDataLength: 31, txPowerRange: nil,
            commandPackets: 1, commandLatency: .milliseconds(1),
            recognition: Recognition(lmpSubversions: [0x2209...0x2209], versions: HCIVersion.v4_1...HCIVersion.v4_1),
            sources: ["drivers/bluetooth/btbcm.c:500 (BCM43430A1, subversion 0x2209)", "teslamotors/vehicle-command issue 101 (4.1, revision 0x01FC, Broadcom 15)"],
            notes: ""),
        ControllerModel(
            id: "qualcomm-qca6174", title: "Qualcomm QCA6174 (Rome: laptop Wi-Fi and Bluetooth combos)",
            hciVersion: .v4_1, hciRevision: 0x0000, lmpSubversion: 0x025A, manufacturer: 0x001D,
            extendedAdvertising: false, advertisingSets: 0, maximumAdvertisingDataLength: 31, txPowerRange: nil,
            commandPackets: 1, commandLatency: .milliseconds(1),
            recognition: Recognition(lmpSubversions: [0x025A...0x025A], versions: HCIVersion.v4_1...HCIVersion.v4_2),
            sources: ["hciconfig -a reports of QCA6174 users (4.1, revision 0, subversion 0x025A, Qualcomm 29), as indexed by the project's research (issue 36)", "drivers/bluetooth/btusb.c:3631 (btusb_setup_qca: Rome, 0cf3:e300/e301)"],
            notes: "Num_HCI_Command_Packets and command time are not in the sources (1 and 1 ms assumed)."),
        ControllerModel(
            id: "csr8510", title: "CSR8510 A10, genuine (0a12:0001 USB dongles)",
            hciVersion: .v4_0, hciRevision: 0x22BB, lmpSubversion: 0x22BB, manufacturer: 0x000A,
            extendedAdvertising: false, advertisingSets: 0, maximumAdvertisingDataLength: 31, txPowerRange: nil,
            commandPackets: 1, commandLatency: .milliseconds(1),
            recognition: Recognition(lmpSubversions: [0x22BB...0x22BB], versions: HCIVersion.v4_0...HCIVersion.v4_0),
            sources: ["drivers/bluetooth/btusb.c:2207-2290 (btusb_setup_csr: a genuine CSR has manufacturer 10 and HCI revision = LMP subversion; 0x22BB is the 4.0 generation)"],
            notes: ""),
        ControllerModel(
            id: "csr8510-clone", title: "CSR8510 clone (0a12:0001 dongles that claim Bluetooth 5.0)",
            hciVersion: .v5_0, hciRevision: 0x3120, lmpSubversion: 0x22BB, manufacturer: 0x000A,
            extendedAdvertising: false, advertisingSets: 0, maximumAdvertisingDataLength: 31, txPowerRange: nil,
            commandPackets: 1, commandLatency: .microseconds(2500),
            quirks: [.intervalFloor(milliseconds: 100)],
            recognition: Recognition(lmpSubversions: [0x0000...0x22BB], versions: HCIVersion.v4_1...HCIVersion.v6_1),
            sources: ["drivers/bluetooth/btusb.c:2251-2287 (a CSR whose LMP subversion is 0x22BB or older but claims a version above 4.0 is fake)",
                      "kernel bugzilla 60824 (clone: 5.0, revision 0x3120, subversion 0x22BB)", "Swyter's CSR clone gist (about 2.5 ms a command)"],
            notes: "A 4.0-era link layer behind a 5.0 claim: the 100 ms floor of non-connectable advertising before 5.0 is an estimate from that (no trace shows the refusal), so beacon plans 100 ms on it."),
        ControllerModel(
            id: "nrf52840-zephyr-hci-usb", title: "nRF52840 dongle with Zephyr's hci_usb sample",
            hciVersion: .v5_2, hciRevision: 0x0000, lmpSubversion: 0xFFFF, manufacturer: 0x05F1,
            extendedAdvertising: true, advertisingSets: 1, maximumAdvertisingDataLength: 251, txPowerRange: nil,
            hasPublicAddress: false, commandPackets: 1, commandLatency: .milliseconds(1),
            recognition: Recognition(lmpSubversions: [0xFFFF...0xFFFF], versions: HCIVersion.v5_0...HCIVersion.v6_1),
            sources: ["zephyr subsys/bluetooth/controller/hci/hci.c (Read Local Version: revision 0, company 0x05F1, subversion 0xFFFF)",
                      "zephyr Kconfig BT_EXT_ADV_MAX_ADV_SET (default 1), BT_CTLR_ADV_DATA_LEN_MAX (251)", "zephyr issue 42534 (public address 00:00:00:00:00:00)"],
            notes: "The HCI version is the build's LL_VERSION_NUMBER (5.2 in the tree read; newer releases say more). BlueZ's btvirt also reports 0x05F1, so a model is recognised by subversion 0xFFFF too."),
        ControllerModel(
            id: "esp32-hci-uart", title: "ESP32 (original) with esp-idf's controller_hci_uart over a UART",
            hciVersion: .v4_2, hciRevision: 0x0000, lmpSubversion: 0x0000, manufacturer: 0x02E5,
            extendedAdvertising: false, advertisingSets: 0, maximumAdvertisingDataLength: 31, txPowerRange: -12...9,
            commandPackets: 1, commandLatency: .milliseconds(2),
            recognition: Recognition(lmpSubversions: [], versions: HCIVersion.v4_2...HCIVersion.v4_2),
            sources: ["esp-idf examples/bluetooth/hci/controller_hci_uart_esp32 (UART1 at 921600 with RTS/CTS: -i serial:/dev/ttyUSB0,921600)",
                      "esp-idf components/bt/include/esp32/include/esp_bt.h:385-392 (TX power -12 to +9 dBm)"],
            notes: "Espressif is company 741; no trace gives the subversion (0 assumed) or the command time over a 921600 baud UART (2 ms assumed)."),
    ]
}
