/// Five heart-rate zones, from the heart-rate reserve (maximum and resting heart rate, the
/// Karvonen way) or from a lactate threshold (Friel's running zones).
///
/// Zone 1 also takes everything below its lower bound, zone 5 everything above: each sample
/// falls into exactly one zone, so the time in zones adds up to the time with heart rate.
public struct HeartRateZones: Sendable, Equatable {
    /// How the zones were set.
    public enum Basis: Sendable, Equatable {
        /// Heart-rate reserve: zone N starts at rest + (40 + 10 N) % of (max - rest).
        case reserve(maxBPM: Int, restingBPM: Int)
        /// Lactate threshold: zones start at 85, 90, 95 and 100 % of it.
        case lactateThreshold(bpm: Int)
    }

    /// Without settings: a maximum of 190 and a resting heart rate of 60.
    public static let defaultMaxBPM = 190
    public static let defaultRestingBPM = 60
    /// The number of zones.
    public static let count = 5

    public let basis: Basis
    /// The lower bounds of zones 2 to 5, beats per minute (rising).
    public let lowerBounds: [Double]

    /// Zones on `basis`.
    public init(basis: Basis) {
        self.basis = basis
        switch basis {
        case .reserve(let maxBPM, let restingBPM):
            let reserve = Double(maxBPM - restingBPM)
            lowerBounds = [0.6, 0.7, 0.8, 0.9].map { Double(restingBPM) + $0 * reserve }
        case .lactateThreshold(let bpm):
            lowerBounds = [0.85, 0.90, 0.95, 1.0].map { $0 * Double(bpm) }
        }
    }

    /// The zones the settings give: the lactate threshold when set, else the reserve from the
    /// maximum and resting heart rate (each defaulted).
    public init(settings: UserSettings) {
        if let lthr = settings.heartRateLactateThreshold {
            self.init(basis: .lactateThreshold(bpm: lthr))
        } else {
            self.init(basis: .reserve(maxBPM: settings.heartRateMax ?? Self.defaultMaxBPM,
                                      restingBPM: settings.heartRateResting ?? Self.defaultRestingBPM))
        }
    }

    /// The default zones (reserve from 190 and 60).
    public static let standard = HeartRateZones(basis: .reserve(maxBPM: defaultMaxBPM, restingBPM: defaultRestingBPM))

    /// The zone of `bpm`, 1 to 5.
    public func zone(of bpm: Int) -> Int {
        1 + lowerBounds.filter { Double(bpm) >= $0 }.count
    }
}
