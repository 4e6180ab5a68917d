// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// Which phone a scan ranges and monitors like (`beacon scan --as`, `locate --live --as`).
/// docs/AIR.md gives each one's evidence, and what is documented versus observed.
public enum PhoneProfile: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Every report as it comes; ranging once a second from that second's reports only (no
    /// smoothing across updates); exit after 30 s. What `beacon scan` always did: the default.
    case raw
    /// CoreLocation as documented and observed: one ranging update per second; `rssi` the
    /// mean over that second; `accuracy` from the mean of the last 20 s (observed lag), −1 and
    /// proximity unknown (RSSI 0) in a second without a report; region exit after 30 s;
    /// at most 20 monitored regions per app.
    case ios
    /// The Android Beacon Library's defaults: 1,100 ms foreground scan cycles, the
    /// ``RunningAverageRSSIFilter`` (20 s, trimmed), a ``CurveFitCoefficients`` curve (Nexus 5
    /// unless told), only the beacons heard in the cycle listed (`RangeState`'s tracking cache is
    /// off by default; their samples still count for 20 s), region exit after 10 s
    /// (`BeaconManager.DEFAULT_EXIT_PERIOD`).
    case android

    public var description: String { rawValue }

    /// How long iOS's accuracy looks back (observed, not documented: see docs/AIR.md).
    public static let iosAccuracySpan = Duration.seconds(20)
    /// CoreLocation's limit on regions monitored by one app (documented for `startMonitoring(for:)`).
    public static let iosRegionLimit = 20
    /// The library's foreground scan period (`DEFAULT_FOREGROUND_SCAN_PERIOD`, between-scan 0).
    public static let androidScanPeriod = Duration.milliseconds(1100)
    /// `BeaconManager.DEFAULT_EXIT_PERIOD`.
    public static let androidExitPeriod = Duration.seconds(10)
    /// The exit delay CoreLocation is observed to use, and `raw`'s.
    public static let iosExitPeriod = Duration.seconds(30)
}

/// Everything a ``ScanSession`` takes from a ``PhoneProfile``: the update rhythm, the ranging
/// rules, the exit delay and the region limit.
public struct PhoneScanning: Hashable, Sendable {
    public var profile: PhoneProfile
    public var updateInterval: Duration
    public var ranging: RangingConfiguration
    public var exitAfter: Duration
    /// How many regions may be monitored at once; `nil`: no limit.
    public var regionLimit: Int?
    /// The formats the phone's beacon API ranges and monitors at all (`nil`: every one):
    /// CoreLocation's `CLBeaconRegion` is iBeacon only, whatever its UUID (an AltBeacon with the
    /// same UUID is never ranged by an iPhone app); the Android Beacon Library parses every
    /// layout it is given.
    public var formats: Set<BeaconFormat>? = nil

    /// A profile's settings.
    ///
    /// - Parameters:
    ///   - profile: the phone to scan like.
    ///   - model: the distance model for `raw` and `ios` (Apple does not publish iOS's).
    ///   - androidCurve: the curve for `android` (the library picks it by phone model).
    ///   - exitAfter: the exit delay; `nil`: the profile's default.
    public init(_ profile: PhoneProfile, model: DistanceModel = .altBeacon, androidCurve: CurveFitCoefficients = .nexus5,
                exitAfter: Duration? = nil) {
        self.profile = profile
        switch profile {
        case .raw:
            updateInterval = .seconds(1)
            ranging = RangingConfiguration(window: .seconds(1), model: model, forgetAfter: PhoneProfile.iosExitPeriod, smoothing: .cycleMean)
            self.exitAfter = exitAfter ?? PhoneProfile.iosExitPeriod
            regionLimit = nil
        case .ios:
            updateInterval = .seconds(1)
            ranging = RangingConfiguration(window: .seconds(1), model: model, forgetAfter: exitAfter ?? PhoneProfile.iosExitPeriod,
                                           smoothing: .accuracyOver(PhoneProfile.iosAccuracySpan))
            self.exitAfter = exitAfter ?? PhoneProfile.iosExitPeriod
            regionLimit = PhoneProfile.iosRegionLimit
            formats = [.iBeacon]
        case .android:
            updateInterval = PhoneProfile.androidScanPeriod
            ranging = RangingConfiguration(window: PhoneProfile.androidScanPeriod, model: .curveFit(androidCurve),
                                           forgetAfter: RunningAverageRSSIFilter.sampleExpiration,
                                           listedFor: PhoneProfile.androidScanPeriod, smoothing: .runningAverage)
            self.exitAfter = exitAfter ?? PhoneProfile.androidExitPeriod
            regionLimit = nil
        }
    }

    /// Too many regions for the profile.
    public struct TooManyRegions: Error, Hashable, Sendable, CustomStringConvertible {
        public var count: Int
        public var limit: Int
        public var description: String { "\(count) regions: iOS monitors at most \(limit) regions per app" }
    }

    /// Checks the regions against ``regionLimit``.
    public func check(regions: [BeaconRegion]) throws(TooManyRegions) {
        if let regionLimit, regions.count > regionLimit { throw TooManyRegions(count: regions.count, limit: regionLimit) }
    }
}
