import Testing
import RunWalkCore
import RunWalkGPS

/// A receiver walking north at 3 m/s from a fixed point, one fix a second.
private func fix(second: Int, position: Bool = true) -> Fix {
    var fix = Fix(time: UTCTime(milliseconds: 1_776_000_000_000 + Int64(second) * 1000))
    fix.mode = position ? .threeD : .noFix
    fix.hdop = 0.9
    if position {
        fix.latitude = 47 + Double(second) * 3 / 111_195
        fix.longitude = 8.5
        fix.speedMetresPerSecond = 3
    }
    return fix
}

private func cueTexts(_ events: [SessionEvent]) -> [String] {
    events.compactMap { if case .cue(let cue) = $0 { return cue.text } else { return nil } }
}

@Suite("LiveSession")
struct LiveSessionTests {
    @Test("no fix at the start, then fixes, then silence, then fixes: each change announced once and every gap recorded")
    func gapsOnAMonotonicClock() throws {
        var session = LiveSession(workout: try Workout(parsing: "1m run"), settings: LiveSettings(clock: .monotonic(scale: 1)))
        var events = session.begin(now: .seconds(100), utc: nil).events
        for tenth in 1...600 {
            let now = Duration.seconds(100) + .milliseconds(tenth * 100)
            let second = tenth / 10
            events += session.tick(now: now).events
            // Fixes from 2 s to 20 s and from 30 s on, one a second.
            if tenth % 10 == 0, second >= 2, !(21..<30).contains(second) {
                events += session.handle(.fix(fix(second: second)), now: now).events
            }
        }
        #expect(cueTexts(events).filter { $0.hasPrefix("GPS") || $0.hasPrefix("Waiting") }
                == ["Waiting for GPS.", "GPS ready.", "GPS signal lost.", "GPS back."])
        let gaps = session.runner.gpsGaps
        try #require(gaps.count == 2)
        #expect(gaps[0] == GPSGap(startSeconds: 0, endSeconds: 2, reason: .noFixYet))
        #expect(gaps[1].reason == .signalLost)
        #expect(abs(gaps[1].startSeconds - 23.1) < 0.001, "lost once 3 s passed without a position after 20 s")
        #expect(gaps[1].endSeconds == 30)
        #expect(session.isFinished, "the workout ran on by time")
        #expect(session.summary().state == "completed")
        // 3 m/s for 18 s before the gap, across it (chord), and 30 s after it.
        let distance = session.summary().distanceMetres
        #expect(abs(distance - 3 * 58) < 6, "distance \(distance)")
    }

    @Test("the source going away marks the loss at once, and only once")
    func unavailableSource() throws {
        var session = LiveSession(workout: try Workout(parsing: "1m run"))
        _ = session.begin(now: .zero, utc: nil)
        var events = session.handle(.fix(fix(second: 0)), now: .seconds(1)).events
        events += session.handle(.unavailable("lost gpsd at localhost:2947"), now: .seconds(2)).events
        events += session.handle(.unavailable("still gone"), now: .seconds(3)).events
        events += session.tick(now: .seconds(10)).events
        #expect(cueTexts(events) == ["GPS ready.", "GPS signal lost."], "begun without a fix: waiting, then ready")
        #expect(session.gps == .lost)
        #expect(session.runner.gpsGaps.last == GPSGap(startSeconds: 2, endSeconds: nil, reason: .signalLost))
    }

    @Test("start on the first fix: fixes without a position wait, the clock starts at the first position")
    func startOnFix() throws {
        var session = LiveSession(workout: try Workout(parsing: "10s run, 10s walk"),
                                  settings: LiveSettings(clock: .monotonic(scale: 10), start: .fix))
        let begin = session.begin(now: .zero, utc: nil)
        #expect(begin.events.isEmpty)
        let noFix = session.handle(.fix(fix(second: 0, position: false)), now: .milliseconds(500))
        #expect(noFix.messages == ["GPS: no fix yet, waiting"])
        #expect(!session.started)
        _ = session.handle(.fix(fix(second: 1)), now: .seconds(1))
        #expect(session.started && session.runner.startUTC == fix(second: 1).time)
        #expect(session.runner.gpsGaps.isEmpty, "no gap: the workout waited for the fix")
        // At 10x, 1.5 s of wall time is 15 s of workout: in the walk.
        _ = session.tick(now: .milliseconds(2500))
        #expect(session.runner.engine.phaseIndex == 1)
    }

    @Test("track clock: the fixes' times drive the workout, and a source that ends first leaves it incomplete")
    func trackClock() throws {
        var session = LiveSession(workout: try Workout(parsing: "20s run, 20s walk"), settings: LiveSettings(clock: .track))
        _ = session.begin(now: .zero, utc: nil)
        for second in 0...25 { _ = session.handle(.fix(fix(second: 1000 + second)), now: .zero) }
        #expect(session.clock == .seconds(25))
        #expect(session.runner.engine.phaseIndex == 1)
        _ = session.handle(.ended, now: .zero)
        #expect(session.isFinished)
        #expect(session.summary().state == "incomplete")
    }
}

@Suite("LiveSession at a fast clock")
struct LiveSessionFastClockTests {
    @Test("at 20x, a 200 ms stall is jitter, not a lost signal; 1 s of silence is")
    func jitterIsNotALoss() throws {
        var session = LiveSession(workout: try Workout(parsing: "1m run"), settings: LiveSettings(clock: .monotonic(scale: 20)))
        _ = session.begin(now: .zero, utc: nil)
        var events = session.handle(.fix(fix(second: 0)), now: .zero).events
        events += session.tick(now: .milliseconds(200)).events
        #expect(session.gps == .ok, "4 s of session time, but only 0.2 s of real time")
        events += session.handle(.fix(fix(second: 4)), now: .milliseconds(210)).events
        events += session.tick(now: .milliseconds(1300)).events
        #expect(session.gps == .lost)
        #expect(cueTexts(events).filter { $0.hasPrefix("GPS") } == ["GPS ready.", "GPS signal lost."])
    }
}
