// SPDX-License-Identifier: GPL-2.0-or-later
#if canImport(Glibc)
import Glibc
#endif

/// A POSIX error number, like swift-system's `Errno`: a typed value instead of a bare `Int32`.
public struct Errno: RawRepresentable, Hashable, Sendable, Error, CustomStringConvertible {
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno`.
    public static var current: Errno { Errno(rawValue: errno) }

    /// The corresponding C constant is `EPERM`.
    public static let notPermitted = Errno(rawValue: EPERM)
    /// The corresponding C constant is `EACCES`.
    public static let permissionDenied = Errno(rawValue: EACCES)
    /// The corresponding C constant is `ENODEV`.
    public static let noSuchDevice = Errno(rawValue: ENODEV)
    /// The corresponding C constant is `ENETDOWN`.
    public static let networkDown = Errno(rawValue: ENETDOWN)
    /// The corresponding C constant is `EBUSY`.
    public static let resourceBusy = Errno(rawValue: EBUSY)
    /// The corresponding C constant is `EAFNOSUPPORT`.
    public static let addressFamilyNotSupported = Errno(rawValue: EAFNOSUPPORT)
    /// The corresponding C constant is `ECONNREFUSED`.
    public static let connectionRefused = Errno(rawValue: ECONNREFUSED)
    /// The corresponding C constant is `ENOENT`.
    public static let noSuchFile = Errno(rawValue: ENOENT)
    /// The corresponding C constant is `EINTR`.
    public static let interrupted = Errno(rawValue: EINTR)
    /// The corresponding C constant is `EAGAIN`.
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    /// The corresponding C constant is `EALREADY`.
    public static let alreadyInProgress = Errno(rawValue: EALREADY)
    /// The corresponding C constant is `EINPROGRESS`.
    public static let inProgress = Errno(rawValue: EINPROGRESS)
    /// The corresponding C constant is `ERFKILL`.
    public static let radioKilled = Errno(rawValue: ERFKILL)
    /// The corresponding C constant is `EPIPE`.
    public static let brokenPipe = Errno(rawValue: EPIPE)
    /// The corresponding C constant is `ETIMEDOUT`.
    public static let timedOut = Errno(rawValue: ETIMEDOUT)
    /// The corresponding C constant is `EADDRNOTAVAIL`.
    public static let addressNotAvailable = Errno(rawValue: EADDRNOTAVAIL)

    /// The C library's message, e.g. "Address family not supported by protocol".
    public var description: String { String(cString: strerror(rawValue)) }
}
