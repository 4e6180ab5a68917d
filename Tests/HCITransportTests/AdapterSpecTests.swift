// SPDX-License-Identifier: GPL-2.0-or-later
import Testing
import HCITransport

@Suite struct AdapterSpecTests {
    @Test(arguments: [
        ("hci0", AdapterSpec.kernel(id: 0)), ("0", .kernel(id: 0)), ("hci12", .kernel(id: 12)),
        ("user:hci1", .userChannel(id: 1)), ("user:2", .userChannel(id: 2)),
        ("tcp:127.0.0.1:9000", .tcp(host: "127.0.0.1", port: 9000)), ("tcp:[::1]:7", .tcp(host: "::1", port: 7)),
        // RTS/CTS by default (Zephyr's hci_uart and ESP32's HCI UART need it); off with ,nortscts.
        ("serial:/dev/ttyACM0", .serial(path: "/dev/ttyACM0", baud: 1_000_000, flowControl: true)),
        ("serial:/dev/ttyUSB0@115200,rtscts", .serial(path: "/dev/ttyUSB0", baud: 115_200, flowControl: true)),
        ("serial:/dev/ttyUSB0@921600,nortscts", .serial(path: "/dev/ttyUSB0", baud: 921_600, flowControl: false)),
        ("virtual", .virtual(options: [:])), ("virtual:sets=4,legacy", .virtual(options: ["sets": "4", "legacy": "yes"])),
        ("all", .allKernel),
    ])
    func parses(text: String, expected: AdapterSpec) throws {
        #expect(try AdapterSpec(parsing: text) == expected)
        // Printing gives back something that parses to the same adapter.
        #expect(try AdapterSpec(parsing: expected.description) == expected)
    }

    @Test(arguments: ["", "hciX", "tcp:host", "tcp:host:0", "tcp::9000", "tcp:h:70000", "serial:ttyACM0", "serial:/dev/x@fast", "user:wlan0", "bluetooth"])
    func rejects(text: String) {
        #expect(throws: TransportError.self) { try AdapterSpec(parsing: text) }
    }

    @Test func listsSeveral() throws {
        #expect(try AdapterSpec.list("hci0,hci1") == [.kernel(id: 0), .kernel(id: 1)])
        #expect(try AdapterSpec.list("virtual:sets=2,version=4.2") == [.virtual(options: ["sets": "2", "version": "4.2"])])
    }

    /// One controller named twice, however it is spelled, would be opened twice and given beacons
    /// twice: refused, naming both spellings.
    @Test(arguments: [
        ("hci0,hci0", "hci0", "hci0", "hci0"), ("hci0,0,hci00", "hci0", "0", "hci0"), ("hci1,hci00,hci001", "hci1", "hci001", "hci1"),
        ("user:hci0,hci0", "user:hci0", "hci0", "hci0"), ("tcp:127.0.0.1:9000,tcp:127.0.0.1:9000", "tcp:127.0.0.1:9000", "tcp:127.0.0.1:9000", "tcp:127.0.0.1:9000"),
        ("tcp:Host:7,hci0,tcp:host:7", "tcp:Host:7", "tcp:host:7", "tcp:Host:7"), ("all,hci2", "all", "hci2", "hci2"),
        ("tcp:[::1]:7,tcp:[0:0:0:0:0:0:0:1]:7", "tcp:[::1]:7", "tcp:[0:0:0:0:0:0:0:1]:7", "tcp:[::1]:7"), ("all,all", "all", "all", "all"),
        ("serial:/dev/ttyACM0,serial:/dev/ttyACM0@115200", "serial:/dev/ttyACM0", "serial:/dev/ttyACM0@115200", "serial:/dev/ttyACM0@1000000"),
    ])
    func theSameControllerTwiceIsRefused(list: String, first: String, second: String, controller: String) {
        #expect(throws: TransportError.sameController(first: first, second: second, controller: controller)) {
            try AdapterSpec.list(list)
        }
        let message = TransportError.sameController(first: first, second: second, controller: controller).description
        #expect(message.contains("'\(first)'") && message.contains(controller))
    }

    @Test func distinctControllersAreAccepted() throws {
        #expect(try AdapterSpec.list("hci0,user:hci1,tcp:127.0.0.1:9000,tcp:127.0.0.1:9001,tcp:h:1").count == 5)
        #expect(try AdapterSpec.list("all,tcp:127.0.0.1:9000").count == 2)
    }

    @Test func invalidAdapterMessageListsTheForms() {
        let e = TransportError.invalidAdapter("bluetooth", reason: "not an adapter name")
        #expect(e.description.contains("tcp:HOST:PORT"))
        #expect(e.description.contains("virtual"))
    }

    @Test func managementAPISpec() throws {
        #expect(try AdapterSpec(parsing: "mgmt:hci0") == .management(id: 0))
        #expect(try AdapterSpec(parsing: "mgmt:1") == .management(id: 1))
        #expect(AdapterSpec.management(id: 2).description == "mgmt:hci2")
        #expect(AdapterSpec.management(id: 0).transportDescription.contains("HCI_CHANNEL_CONTROL"))
        #expect(throws: TransportError.self) { try AdapterSpec(parsing: "mgmt:wlan0") }
        // The management API reaches the same controller as the raw socket.
        #expect(throws: TransportError.self) { try AdapterSpec.list("hci0,mgmt:hci0") }
        #expect(throws: TransportError.self) { try AdapterSpec.list("all,mgmt:hci1") }
        #expect(try AdapterSpec.list("mgmt:hci0,mgmt:hci1") == [.management(id: 0), .management(id: 1)])
    }

    @Test func rawSocketSpec() throws {
        #expect(try AdapterSpec(parsing: "raw:hci0") == .raw(id: 0))
        #expect(try AdapterSpec(parsing: "raw:3") == .raw(id: 3))
        #expect(AdapterSpec.raw(id: 1).description == "raw:hci1")
        #expect(AdapterSpec.raw(id: 1).kernelID == 1)
        #expect(AdapterSpec.raw(id: 0).transportDescription.contains("raw channel"))
        #expect(throws: TransportError.self) { try AdapterSpec(parsing: "raw:wlan0") }
        #expect(throws: TransportError.self) { try AdapterSpec.list("hci0,raw:hci0") }
        #expect(throws: TransportError.self) { try AdapterSpec.list("all,raw:hci1") }
    }
}
