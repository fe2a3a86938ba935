/// One heart-rate reading with its own time: from a strap's notification or a track file's point.
public struct HeartRateSample: Sendable, Equatable, Codable {
    /// When it was taken, seconds on the clock of whoever holds it (the session clock, or seconds
    /// from the workout's start in a summary's input).
    public var seconds: Double
    /// Beats per minute (always plausible: "no heart rate" is no sample).
    public var bpm: Int
    /// The beat-to-beat intervals the strap sent with it, seconds.
    public var rrIntervalsSeconds: [Double]
    /// Read with a fix from a track file (it belongs to that fix's time only), rather than sent by a
    /// strap on its own clock (it stands until the next one, at most `HeartRateStats.holdSeconds`).
    public var fromTrackFile = false

    /// A sample of `bpm` at `seconds`.
    public init(seconds: Double, bpm: Int, rrIntervalsSeconds: [Double] = [], fromTrackFile: Bool = false) {
        self.seconds = seconds
        self.bpm = bpm
        self.rrIntervalsSeconds = rrIntervalsSeconds
        self.fromTrackFile = fromTrackFile
    }

    /// A sample from a measurement, nil when the measurement carries no heart rate.
    public init?(seconds: Double, measurement: HeartRateMeasurement) {
        guard let bpm = measurement.bpm else { return nil }
        self.init(seconds: seconds, bpm: bpm, rrIntervalsSeconds: measurement.rrIntervalsSeconds)
    }

    /// A file's value as a sample: nil when it is no heart rate (0, 255, out of range).
    public init?(seconds: Double, fileBPM: Double) {
        guard fileBPM.isFinite else { return nil }
        let bpm = Int(fileBPM.rounded())
        guard HeartRateMeasurement.plausibleBPM.contains(bpm) else { return nil }
        self.init(seconds: seconds, bpm: bpm)
    }

    enum CodingKeys: String, CodingKey { case seconds = "t_s", bpm, rrIntervalsSeconds = "rr_s" }
}
