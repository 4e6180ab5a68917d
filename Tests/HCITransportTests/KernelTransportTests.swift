// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import Testing
import HCI
import HCITransport
#if canImport(Glibc)
import Glibc
#endif

/// System calls that fail the way a given machine would, to check the advice users get.
struct FailingSystemCalls: SystemCalls {
    var socketError: Errno
    func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> { .failure(socketError) }
    func write(_ fd: Int32, from buffer: UnsafeRawBufferPointer) -> Result<Int, Errno> { .failure(socketError) }
    func pollReadable(_ fd: Int32, milliseconds: Int32) -> Result<Bool, Errno> { .failure(socketError) }
    func close(_ fd: Int32) {}
    func shutdown(_ fd: Int32) {}
    func openSocket(domain: Int32, type: Int32, protocol: Int32) -> Result<Int32, Errno> { .failure(socketError) }
}

@Suite struct KernelTransportTests {
    /// On this kernel (no Bluetooth) the real call must say so in plain words; on a machine that
    /// has Bluetooth, hci250 does not exist and the message must list the real adapters.
    @Test func realKernelGivesPlainWords() {
        let error = #expect(throws: TransportError.self) { _ = try KernelTransport.openRaw(id: 250) }
        let text = error?.description ?? ""
        let noBluetooth = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue), 1) < 0 && errno == EAFNOSUPPORT
        if noBluetooth {
            #expect(text.contains("This kernel has no Bluetooth support"))
            #expect(text.hasPrefix("hci250:"))
        } else {
            #expect(text.contains("no such adapter"))
        }
    }

    @Test(arguments: [
        (Errno.notPermitted, "setcap cap_net_raw,cap_net_admin+eip"),
        (Errno.permissionDenied, "CAP_NET_RAW"),
        (Errno.networkDown, "hciconfig hci0 up"),
        (Errno.resourceBusy, "systemctl stop bluetooth"),
        (Errno.addressFamilyNotSupported, "no Bluetooth support"),
        (Errno.noSuchDevice, FrontEndTerm.listAdapters.conceptText),
    ])
    func systemErrorsBecomeAdvice(errno: Errno, advice: String) {
        let e = TransportError.system(SystemCallError(call: "bind(hci0)", errno: errno), adapter: "hci0")
        #expect(e.description.contains(advice))
        #expect(e.description.contains("bind(hci0)"))
    }

    /// A UART that does not answer is most often at the wrong rate or flow control (#36): the
    /// advice says which, with the rates of the devices people use.
    @Test func aSilentUARTNamesRateAndFlowControl() {
        let serial = HCIControllerError.timeout(command: "Reset", opcode: HCIReset.opcode, adapter: "serial:/dev/ttyUSB0@1000000", milliseconds: 2000)
        #expect(serial.description.contains(",nortscts") && serial.description.contains("921600"), "\(serial.description)")
        let tcp = HCIControllerError.timeout(command: "Reset", opcode: HCIReset.opcode, adapter: "tcp:127.0.0.1:9000", milliseconds: 2000)
        #expect(!tcp.description.contains("nortscts"), "\(tcp.description)")
    }

    /// Bringing an adapter up fails for the driver's reasons, not a device file's (#36): missing
    /// firmware (ENOENT), no public address (EADDRNOTAVAIL), setup still running (EBUSY).
    @Test(arguments: [
        (Errno.noSuchFile, "firmware-realtek"),
        (Errno.addressNotAvailable, "no public address"),
        (Errno.resourceBusy, "still being set up"),
    ])
    func bringingAnAdapterUpNamesTheDriversCause(errno: Errno, advice: String) {
        let e = TransportError.system(SystemCallError(call: "ioctl(HCIDEVUP hci1)", errno: errno), adapter: "hci1")
        #expect(e.description.contains(advice), "\(e.description)")
        #expect(!e.description.contains("serial port"))
    }

    /// A kernel without Bluetooth, whatever this machine has: the seam's socket call fails with
    /// EAFNOSUPPORT, and opening an HCI socket says which call failed with that error.
    @Test func theHCISocketIsOpenedThroughTheSeam() {
        let result = FailingSystemCalls(socketError: .addressFamilyNotSupported).openHCISocket(device: 0, channel: 0, filterEvents: true)
        #expect(result == .failure(SystemCallError(call: "socket(AF_BLUETOOTH)", errno: .addressFamilyNotSupported)))
    }

    @Test func replaceableSystemCallsReachTheTransport() {
        let t = FileDescriptorTransport(fd: -1, adapterName: "hci0", system: FailingSystemCalls(socketError: .networkDown))
        let error = #expect(throws: TransportError.self) { _ = try t.receive(timeout: .milliseconds(10)) }
        #expect(error?.description.contains("adapter is down") == true)
    }
}
