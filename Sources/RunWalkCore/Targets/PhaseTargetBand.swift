/// A phase's band as the summary JSON writes it: `{"text": "6:00-6:30/km", "pace_min_s_per_km": 360,
/// "pace_max_s_per_km": 390}` or `{"text": "hr 140-150", "hr_min": 140, "hr_max": 150}`.
public struct PhaseTargetBand: Sendable, Equatable, Codable {
    /// The band as the spec writes it.
    public var text: String
    /// Fastest and slowest pace of a pace band, seconds per kilometre.
    public var paceMinSecondsPerKm: Double?
    public var paceMaxSecondsPerKm: Double?
    /// Lowest and highest heart rate of a heart-rate band, bpm.
    public var heartRateMin: Int?
    public var heartRateMax: Int?

    public init(_ band: TargetBand) {
        text = band.specText
        switch band {
        case .pace(let fastest, let slowest, _):
            paceMinSecondsPerKm = Summary.rounded(fastest, digits: 1)
            paceMaxSecondsPerKm = Summary.rounded(slowest, digits: 1)
        case .heartRate(let low, let high):
            heartRateMin = low
            heartRateMax = high
        }
    }

    enum CodingKeys: String, CodingKey {
        case text, paceMinSecondsPerKm = "pace_min_s_per_km", paceMaxSecondsPerKm = "pace_max_s_per_km"
        case heartRateMin = "hr_min", heartRateMax = "hr_max"
    }
}

extension Summary.Phase {
    /// Sets the band and the times in, below and above it, rounded like the duration; the time
    /// above is what is left of the rounded duration, so the three add up to it.
    public mutating func setTarget(_ band: TargetBand, times: TargetTally.Times) {
        target = PhaseTargetBand(band)
        let total = times.totalSeconds
        let scale = total > 0 ? durationSeconds / total : 0
        let inside = Summary.rounded(times.inSeconds * scale, digits: 3)
        let below = Summary.rounded(times.belowSeconds * scale, digits: 3)
        timeInTargetSeconds = inside
        timeBelowSeconds = below
        timeAboveSeconds = Summary.rounded(max(0, durationSeconds - inside - below), digits: 3)
    }
}
