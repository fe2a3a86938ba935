import RunWalkCore

/// Renders a session as a FIT activity file: file_id, a timer start event, one record per
/// second of track (position, altitude, distance, speed, heart rate), the strap's beat-to-beat
/// (RR) intervals in `hrv` messages before the record they lead up to, one lap per phase, a
/// timer stop event, the session and the activity — the messages Garmin Connect and Strava read.
public enum FITActivityWriter {
    // Global message numbers (FIT profile).
    static let fileID: UInt16 = 0, session: UInt16 = 18, lap: UInt16 = 19, record: UInt16 = 20
    static let event: UInt16 = 21, activity: UInt16 = 34, hrv: UInt16 = 78
    /// RR intervals per `hrv` message (as watches write them; the last is padded with invalid values).
    static let intervalsPerHRV = 5
    /// Seconds from the Unix epoch to the FIT epoch, 1989-12-31T00:00:00Z.
    static let fitEpochUnixSeconds: Int64 = 631_065_600

    /// The FIT file's bytes.
    public static func render(_ session: RecordedSession) -> [UInt8] {
        var fit = FITEncoder()
        let summary = session.summary
        let start = timestamp(session.time(atElapsed: 0))
        let end = timestamp(session.time(atElapsed: session.elapsedSeconds))
        typealias F = FITEncoder.Field

        fit.write(message: fileID, [
            F(0, .enumeration, 4),          // type: activity
            F(1, .uint16, 255),             // manufacturer: development
            F(2, .uint16, 1),               // product
            F(3, .uint32z, max(1, start)),  // serial number: unique enough per session
            F(4, .uint32, start),           // time created
        ])
        fit.write(message: event, [F(253, .uint32, start), F(0, .enumeration, 0), F(1, .enumeration, 0)])  // timer start

        let hasAltitude = session.hasAltitude
        let hasHeartRate = session.hasHeartRate
        var lastSecond: Int64?
        var intervals = RRIntervalQueue(session.heartRate)
        for (offset, point) in session.track.enumerated() {
            let second = timestamp(point.time)
            let isLast = offset == session.track.count - 1
            // One record per second: FIT timestamps are whole seconds; the distance field keeps the rest exact.
            if second == lastSecond && !isLast { continue }
            lastSecond = second
            // hrv messages have no time of their own: a reader gives them to the next record.
            let due = intervals.take(through: isLast ? .infinity : point.elapsedSeconds)
            for start in stride(from: 0, to: due.count, by: intervalsPerHRV) {
                let chunk = due[start..<min(due.count, start + intervalsPerHRV)].map { Optional(scaled($0 * 1000)) }
                fit.write(message: hrv, [F(0, .uint16, array: chunk + Array(repeating: nil, count: intervalsPerHRV - chunk.count))])
            }
            var fields = [F(253, .uint32, second), F(0, .sint32, semicircles(point.latitude)),
                          F(1, .sint32, semicircles(point.longitude))]
            if hasAltitude { fields.append(F(2, .uint16, point.altitudeMSL.map { scaled(($0 + 500) * 5) })) }
            fields.append(F(5, .uint32, scaled(point.distanceMetres * 100)))
            fields.append(F(6, .uint16, point.speedMetresPerSecond.map { scaled($0 * 1000) }))
            if hasHeartRate { fields.append(F(3, .uint8, point.heartRateBPM.map(Int64.init))) }
            fit.write(message: record, fields)
        }

        let laps = session.laps
        for (number, lap) in laps.enumerated() {
            let first = lap.points.first, last = lap.points.last
            let lapEnd = timestamp(session.time(atElapsed: lap.startSeconds + lap.durationSeconds))
            fit.write(message: self.lap, [
                F(254, .uint16, Int64(number)),
                F(253, .uint32, lapEnd),
                F(0, .enumeration, 9),  // event: lap
                F(1, .enumeration, 1),  // event type: stop
                F(2, .uint32, timestamp(session.time(atElapsed: lap.startSeconds))),
                F(3, .sint32, first.map { semicircles($0.latitude) }),
                F(4, .sint32, first.map { semicircles($0.longitude) }),
                F(5, .sint32, last.map { semicircles($0.latitude) }),
                F(6, .sint32, last.map { semicircles($0.longitude) }),
                F(7, .uint32, scaled(lap.durationSeconds * 1000)),
                F(8, .uint32, scaled(lap.durationSeconds * 1000)),
                F(9, .uint32, scaled(lap.distanceMetres * 100)),
                F(13, .uint16, lap.durationSeconds > 0 ? scaled(lap.distanceMetres / lap.durationSeconds * 1000) : nil),
                F(14, .uint16, lap.maximumSpeedMetresPerSecond.map { scaled($0 * 1000) }),
                F(23, .enumeration, intensity(lap.kind)),
                F(24, .enumeration, lapTrigger(lap, isLast: number == laps.count - 1)),
                F(25, .enumeration, 1),  // sport: running
            ] + heartRateFields(average: 15, maximum: 16, of: summary.phases.first { $0.index == lap.index }.map {
                ($0.heartRateAverage, $0.heartRateMax) }))
        }
        fit.write(message: event, [F(253, .uint32, end), F(0, .enumeration, 0), F(1, .enumeration, 4)])  // timer stop all

        let maximumSpeed = session.track.compactMap(\.speedMetresPerSecond).max()
        fit.write(message: self.session, [
            F(254, .uint16, 0),
            F(253, .uint32, end),
            F(0, .enumeration, 8),  // event: session
            F(1, .enumeration, 1),  // event type: stop
            F(2, .uint32, start),
            F(3, .sint32, session.track.first.map { semicircles($0.latitude) }),
            F(4, .sint32, session.track.first.map { semicircles($0.longitude) }),
            F(5, .enumeration, 1),  // sport: running
            F(6, .enumeration, 0),  // sub-sport: generic
            F(7, .uint32, scaled(session.elapsedSeconds * 1000)),
            F(8, .uint32, scaled(summary.durationSeconds * 1000)),
            F(9, .uint32, scaled(summary.distanceMetres * 100)),
            F(14, .uint16, summary.durationSeconds > 0 ? scaled(summary.distanceMetres / summary.durationSeconds * 1000) : nil),
            F(15, .uint16, maximumSpeed.map { scaled($0 * 1000) }),
            F(25, .uint16, 0),                   // first lap index
            F(26, .uint16, Int64(laps.count)),   // number of laps
            F(28, .enumeration, 0),              // trigger: activity end
        ] + heartRateFields(average: 16, maximum: 17, of: (summary.heartRateAverage, summary.heartRateMax)))
        fit.write(message: activity, [
            F(253, .uint32, end),
            F(0, .uint32, scaled(summary.durationSeconds * 1000)),
            F(1, .uint16, 1),       // number of sessions
            F(2, .enumeration, 0),  // type: manual
            F(3, .enumeration, 26), // event: activity
            F(4, .enumeration, 1),  // event type: stop
            F(5, .uint32, end),     // local time: the zone is unknown, so UTC
        ])
        return fit.file()
    }

    /// avg_heart_rate and max_heart_rate (uint8, bpm) of a lap or the session, when it had heart rate.
    static func heartRateFields(average: UInt8, maximum: UInt8, of figures: (Double?, Int?)?) -> [FITEncoder.Field] {
        guard let (avg, max) = figures, let avg, let max else { return [] }
        return [FITEncoder.Field(average, .uint8, Int64(avg.rounded())), FITEncoder.Field(maximum, .uint8, Int64(max))]
    }

    /// Seconds since the FIT epoch.
    static func timestamp(_ time: UTCTime) -> Int64 {
        let seconds = time.milliseconds >= 0 ? time.milliseconds / 1000 : (time.milliseconds - 999) / 1000
        return seconds - fitEpochUnixSeconds
    }

    /// Degrees as FIT semicircles (2^31 per 180 degrees).
    static func semicircles(_ degrees: Double) -> Int64 {
        scaled(degrees * 2_147_483_648.0 / 180.0)
    }

    static func scaled(_ value: Double) -> Int64 {
        guard value.isFinite else { return 0 }
        return Int64(min(max(value.rounded(), -9.0e18), 9.0e18))
    }

    /// FIT intensity: active 0, rest 1, warm-up 2, cool-down 3.
    static func intensity(_ kind: PhaseKind) -> Int64 {
        switch kind {
        case .run: return 0
        case .walk: return 1
        case .warmup: return 2
        case .cooldown: return 3
        }
    }

    /// FIT lap trigger: manual 0, time 1, distance 2, session end 7.
    static func lapTrigger(_ lap: Lap, isLast: Bool) -> Int64 {
        if isLast { return 7 }
        guard lap.endedByPlan else { return 0 }
        return lap.byDistance ? 2 : 1
    }
}

/// The RR intervals of a session's heart-rate samples, handed out in time order.
struct RRIntervalQueue {
    private let samples: [HeartRateSample]
    private var next = 0

    init(_ samples: [HeartRateSample]) {
        self.samples = samples.filter { !$0.rrIntervalsSeconds.isEmpty }
    }

    /// The intervals of the samples taken up to `seconds` (elapsed) not handed out yet.
    mutating func take(through seconds: Double) -> [Double] {
        var due: [Double] = []
        while next < samples.count, samples[next].seconds <= seconds {
            due += samples[next].rrIntervalsSeconds
            next += 1
        }
        return due
    }
}
