// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconRadio
import HCITransport
import VirtualController

/// How a program opens its adapters: every one or none.
///
/// ```swift
/// let connections = try AdapterOpening(air: .fromEnvironment(env)).open([.virtual(options: [:])])
/// ```
public struct AdapterOpening: Sendable {
    /// How long a command may wait for its reply: a controller that does not answer (a silent
    /// TCP peer, a UART at the wrong baud rate) fails after this long, naming the command.
    public var commandTimeout: Duration
    /// Where every HCI packet is written (btsnoop), if anywhere.
    public var btsnoop: BTSnoopWriter?
    /// The shared virtual air a `virtual` adapter joins (nil: none).
    public var air: SharedAir?
    /// Where a virtual receiver is on the air (metres).
    public var receiver: Point
    /// What the air does to what a virtual receiver hears.
    public var channel: AirChannel
    /// For advertising (or `stop`): a plain kernel adapter (`hci0`) gets the backend
    /// ``BackendChoice`` picks.
    public var advertising: Bool

    /// How long a command waits for its reply unless told otherwise.
    public static let standardCommandTimeout: Duration = .seconds(2)

    public init(commandTimeout: Duration = standardCommandTimeout, btsnoop: BTSnoopWriter? = nil, air: SharedAir? = nil,
                receiver: Point = Point(x: 0, y: 0), channel: AirChannel = .clean, advertising: Bool = false) {
        self.commandTimeout = commandTimeout
        self.btsnoop = btsnoop
        self.air = air
        self.receiver = receiver
        self.channel = channel
        self.advertising = advertising
    }

    /// Opens `spec` as set up here.
    public func open(_ spec: AdapterSpec) throws(AdapterOpenError) -> AdapterConnection {
        advertising
            ? try AdapterConnection.openForAdvertising(spec, commandTimeout: commandTimeout, btsnoop: btsnoop, air: air, receiver: receiver)
            : try AdapterConnection.open(spec, commandTimeout: commandTimeout, btsnoop: btsnoop, air: air, receiver: receiver, channel: channel)
    }

    /// Opens every adapter of `specs` (`all` expanded first), in order. On the first failure the
    /// ones already open are closed again, so nothing is left half open, and the error says why.
    public func open(_ specs: [AdapterSpec]) throws(AdapterOpenError) -> [AdapterConnection] {
        let expanded: [AdapterSpec]
        do throws(TransportError) { expanded = try AdapterConnection.expand(specs) } catch { throw .transport(error) }
        var opened: [AdapterConnection] = []
        for spec in expanded {
            do throws(AdapterOpenError) { opened.append(try open(spec)) } catch {
                for connection in opened { connection.close() }
                throw error
            }
        }
        return opened
    }

    /// The adapters `names` lists (`hci0,virtual`, `all` expanded); without names, the first
    /// kernel adapter. Never falls back to the virtual controller: a program that wants it
    /// names it.
    public static func adapters(named names: String?) throws(TransportError) -> [AdapterSpec] {
        if let names { return try AdapterConnection.expand(try AdapterSpec.list(names)) }
        guard let first = try KernelTransport.adapters().first else { throw .noSuchAdapter("hci0", existing: []) }
        return [.kernel(id: first.id)]
    }
}
