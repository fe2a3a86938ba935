import RunWalkCore

/// `NMEAWriter`'s conversion a point at a time: a point's sentences are ready once the next
/// point of its segment (or the segment's end) is known, since its speed and course come from
/// both neighbours; so a track of any length is converted in constant memory.
public struct NMEAStreamWriter: Sendable {
    /// Epochs written (one per kept point).
    public private(set) var epochs = 0
    /// Points dropped because their time did not advance.
    public private(set) var droppedPoints = 0
    /// Segments with at least one kept point.
    public private(set) var segments = 0
    private var lastTime: UTCTime?
    private var previous: GPXTrack.Point?
    private var current: GPXTrack.Point?
    private var breakPending = false

    /// A writer before its first point.
    public init() {}

    /// Adds a point (`startsSegment` for the first of a segment); returns the CRLF-terminated
    /// sentences now ready, often those of the point before.
    public mutating func add(_ point: GPXTrack.Point, startsSegment: Bool) -> String {
        if let lastTime, point.time <= lastTime {
            droppedPoints += 1
            if startsSegment { breakPending = true }
            return ""
        }
        lastTime = point.time
        var out = ""
        if startsSegment || breakPending {
            breakPending = false
            out += finishSegment()
        }
        if let current {
            out += Self.sentences(current, before: previous ?? current, after: point)
            epochs += 1
            previous = current
        } else {
            segments += 1
        }
        current = point
        return out
    }

    /// The sentences of the last point held back.
    public mutating func finish() -> String {
        finishSegment()
    }

    private mutating func finishSegment() -> String {
        guard let current else { return "" }
        let out = Self.sentences(current, before: previous ?? current, after: current)
        epochs += 1
        previous = nil
        self.current = nil
        return out
    }

    /// GGA then RMC for `point`, its speed and course from its neighbours unless it has a speed.
    static func sentences(_ point: GPXTrack.Point, before: GPXTrack.Point, after: GPXTrack.Point) -> String {
        let seconds = after.time.since(before.time).seconds
        let metres = Geodesy.distance(latitude1: before.latitude, longitude1: before.longitude,
                                      latitude2: after.latitude, longitude2: after.longitude)
        let speed = point.speedMetresPerSecond ?? (seconds > 0 ? metres / seconds : nil)
        let course = metres > 0.5 ? NMEAWriter.bearing(from: before, to: after) : nil
        // GGA first: the decoder takes the date from RMC as soon as it sees it, so an
        // RMC opening an epoch after midnight would re-date the epoch before it.
        return NMEAWriter.gga(point) + "\r\n" + NMEAWriter.rmc(point, speed: speed, course: course) + "\r\n"
    }
}
