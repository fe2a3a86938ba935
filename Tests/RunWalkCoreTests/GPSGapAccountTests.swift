import Testing
import RunWalkCore

/// Each GPS gap's account: the distance counted across it, read from the track either side,
/// and the words the text summary and the HTML report use.
@Suite("GPSGapAccount")
struct GPSGapAccountTests {
    /// A runner going north at 3 m/s, one point a second, with `distance` as the track's counted distance.
    static func point(_ seconds: Double, north: Double, distance: Double) -> TrackPoint {
        TrackPoint(elapsedSeconds: seconds, time: UTCTime(milliseconds: 1_776_000_000_000 + Int64(seconds * 1000)),
                   latitude: 47 + north / 111_195, longitude: 8, distanceMetres: distance)
    }

    static func summary(_ gaps: [GPSGap], units: Units = .metric) -> Summary {
        var summary = Summary(workout: "10m run", startUTC: nil, durationSeconds: 600, movingTimeSeconds: 600, distanceMetres: 1800,
                              averagePaceSecondsPerKm: 333, state: .completed, units: units, phases: [], splits: [], cues: [],
                              fixes: .init(epochs: 600, used: 600, rejected: 0, linesBad: 0))
        summary.gpsGaps = gaps
        return summary
    }

    @Test("straight line, a bend bridged from the speeds, less than the line, nothing, not back, before the first fix, no track")
    func everyCase() {
        // Points at 0…100 s and 130…200 s: a 30 s hole (the gap is seen 3 s after the last point).
        var track: [TrackPoint] = (0...100).map { Self.point(Double($0), north: Double($0) * 3, distance: Double($0) * 3) }
        func after(north: Double, counted: Double) -> [TrackPoint] {
            (130...200).map { Self.point(Double($0), north: north + Double($0 - 130) * 3, distance: 300 + counted + Double($0 - 130) * 3) }
        }
        let gap = GPSGap(startSeconds: 103, endSeconds: 130, reason: .signalLost)
        // 90 m north, 90 m counted: the straight line.
        let straight = GPSGapAccount.accounts(Self.summary([gap]), track: track + after(north: 390, counted: 90))
        #expect(straight.map(\.estimate) == [.straightLine(metres: 90)])
        #expect(straight.first?.durationSeconds == 27)
        #expect(straight.first?.estimateText(.metric) == "90 m counted, the straight line between its ends")
        // Back only 40 m further north but 90 m counted (a hairpin): from the speeds.
        let bend = GPSGapAccount.accounts(Self.summary([gap]), track: track + after(north: 340, counted: 90))
        guard case .speeds(let metres, let line)? = bend.first?.estimate else {
            Issue.record("expected an estimate from the speeds, got \(String(describing: bend.first?.estimate))")
            return
        }
        #expect(metres == 90 && abs(line - 40) < 0.01)
        #expect(bend.first?.estimateText(.metric) == "90 m counted from the speeds before and after (straight line 40 m)")
        #expect(bend.first?.estimateText(.imperial) == "98 yd counted from the speeds before and after (straight line 44 yd)")
        // 90 m north, 20 m counted (paused in it).
        let less = GPSGapAccount.accounts(Self.summary([gap]), track: track + after(north: 390, counted: 20))
        #expect(less.first?.countedMetres == 20)
        #expect(less.first?.estimateText(.metric).hasPrefix("20 m counted, less than the straight line of 90 m") == true)
        // Nothing counted: a new segment.
        let nothing = GPSGapAccount.accounts(Self.summary([gap]), track: track + after(north: 390, counted: 0))
        if case .nothing(let line)? = nothing.first?.estimate {
            #expect(abs(line - 90) < 0.1, "the straight line: \(line)")
        } else {
            Issue.record("expected nothing counted, got \(String(describing: nothing.first?.estimate))")
        }
        #expect(nothing.first?.countedMetres == 0)
        // The GPS never came back.
        let open = GPSGapAccount.accounts(Self.summary([GPSGap(startSeconds: 103, endSeconds: nil, reason: .signalLost)]), track: track)
        #expect(open.first?.estimate == .notBack && open.first?.durationSeconds == nil)
        // No fix yet at the start.
        let first = GPSGapAccount.accounts(Self.summary([GPSGap(startSeconds: 0, endSeconds: 12, reason: .noFixYet)]), track: track)
        #expect(first.first?.estimate == .noPositionBefore && first.first?.reasonText == "no fix yet")
        // A summary alone: the rule, not a number.
        let alone = GPSGapAccount.accounts(Self.summary([gap]), track: [])
        #expect(alone.first?.estimate == .unknown && alone.first?.countedMetres == nil)
        // A gap that ended as it began (the workout started on the first fix) is left out.
        #expect(GPSGapAccount.accounts(Self.summary([GPSGap(startSeconds: 0, endSeconds: 0, reason: .noFixYet), gap]), track: track).count == 1)
        // No gaps, no accounts.
        track.removeAll()
        #expect(GPSGapAccount.accounts(Self.summary([]), track: track).isEmpty)
    }
}
