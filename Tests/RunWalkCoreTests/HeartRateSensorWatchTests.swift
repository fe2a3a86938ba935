import RunWalkCore
import Testing

/// Issue 32: a lost strap is said once by the voice, and its return once, without nagging.
@Suite("HeartRateSensorWatch: when a live strap is said lost and back")
struct HeartRateSensorWatchTests {
    typealias Said = (seconds: Double, announcement: HeartRateSensorWatch.Announcement)

    static let beat = HeartRateInput.measurement(HeartRateMeasurement(rawBPM: 142, contact: .detected))
    static let noContact = HeartRateInput.measurement(HeartRateMeasurement(rawBPM: 255, contact: .notDetected))

    /// Drives a watch second by second from 0 to `seconds`: `input(t)` is what the strap sent at
    /// `t` (nil: nothing, and time only moves on). Returns what is to be said, with its time.
    static func run(until seconds: Int, _ input: (Int) -> HeartRateInput?) -> [Said] {
        var watch = HeartRateSensorWatch()
        var said: [Said] = []
        for t in 0...seconds {
            let now = Double(t)
            let announcements = input(t).map { watch.handle($0, at: now) } ?? watch.tick(at: now)
            said += announcements.map { (now, $0) }
        }
        return said
    }

    static func times(_ said: [Said], _ kind: HeartRateSensorWatch.Announcement) -> [Double] {
        said.filter { $0.announcement == kind }.map(\.seconds)
    }

    @Test("no heart rate for 10 s is said lost once; 3 s of heart rates again are said back once")
    func silence() {
        let said = Self.run(until: 120) { t in (0...20).contains(t) || t >= 50 ? Self.beat : nil }
        #expect(Self.times(said, .lost) == [30], "\(said)")
        #expect(Self.times(said, .back) == [53], "\(said)")
    }

    @Test("no skin contact for 5 s is a loss; a moment without contact is not")
    func contact() {
        let said = Self.run(until: 90) { t in
            switch t {
            case 10...12: Self.noContact // a shirt lifting: 2 s
            case 30...59: Self.noContact // the strap slipped
            default: Self.beat
            }
        }
        #expect(Self.times(said, .lost) == [35], "\(said)")
        #expect(Self.times(said, .back) == [63], "\(said)")
    }

    @Test("a strap the adapter reports gone is said lost at once; reconnecting alone is no return")
    func adapterLoss() {
        let said = Self.run(until: 60) { t in
            switch t {
            case 0...9: Self.beat
            case 10: .lost(reason: "out of range")
            case 11: .lost(reason: "out of range")
            case 20: .connected
            case 22: Self.beat // a stray value, then nothing for 2 s
            case 25...40: Self.beat
            default: nil
            }
        }
        #expect(Self.times(said, .lost) == [10], "\(said)")
        #expect(Self.times(said, .back) == [28], "one stray value is no return; 3 s of them are: \(said)")
    }

    @Test("a flickering strap is heard at most once a minute: a loss inside the quiet time waits, and its return is not said")
    func noNagging() {
        let said = Self.run(until: 200) { t in
            switch t {
            case 0...9, 20...23, 40...45: Self.beat
            default: nil
            }
        }
        // Lost at 19 (said), back at 23 (said); lost again at 33 and back at 43 inside the quiet
        // minute (neither said); lost at 55, still lost when the minute after 23 is over: said at 83.
        #expect(said.map(\.seconds) == [19, 23, 83], "\(said)")
        #expect(said.map(\.announcement) == [.lost, .back, .lost])
    }

    @Test("nothing is said before the strap ever gave a heart rate")
    func nothingBeforeTheFirst() {
        #expect(Self.run(until: 60) { _ in nil }.isEmpty)
        #expect(Self.run(until: 60) { t in t == 0 ? .connected : nil }.isEmpty)
    }

    @Test("the session says \"Heart rate lost.\" and \"Heart rate back.\" once each on its injected clock, and logs the strap's own loss")
    func sessionSaysIt() throws {
        var runner = SessionRunner(workout: try Workout(parsing: "10m run"))
        _ = runner.start(at: .zero, utc: nil)
        var cues: [Cue] = []
        for t in 1...300 {
            let clock = Duration.seconds(t)
            let events: [SessionEvent]
            switch t {
            case 1...60, 100...199, 250...300: events = runner.heartRate(Self.beat, at: clock)
            case 200: events = runner.heartRate(.lost(reason: "out of range"), at: clock)
            default: events = runner.advance(to: clock)
            }
            cues += events.compactMap { if case .cue(let cue) = $0 { cue } else { nil } }
        }
        let sensor = cues.filter { $0.kind == .heartRateSensor }
        #expect(sensor.map(\.text) == ["Heart rate lost.", "Heart rate back.", "Heart rate lost.", "Heart rate back."], "\(sensor)")
        // Silence from 61: lost at 70; back after 3 s of beats from 100; gone at 200; back at 253.
        #expect(sensor.map(\.atSeconds) == [70, 103, 200, 253], "\(sensor)")
        #expect(runner.eventLog.filter { $0.kind == .heartRateLost }.map(\.atSeconds) == [200])
        #expect(runner.eventLog.filter { $0.kind == .heartRateBack }.map(\.atSeconds) == [250])
    }

    @Test("switched off with the cue kind hr_sensor, nothing is said; German says it in German")
    func kindAndLanguage() throws {
        var options = SessionOptions()
        options.enabledCues.remove(.heartRateSensor)
        var quiet = SessionRunner(workout: try Workout(parsing: "10m run"), options: options)
        _ = quiet.start(at: .zero, utc: nil)
        _ = quiet.heartRate(Self.beat, at: .seconds(1))
        let silent = quiet.advance(to: .seconds(30)).compactMap { if case .cue(let cue) = $0 { cue } else { nil } }
        #expect(silent.isEmpty && quiet.heartRateSensor.isLost)
        #expect(GermanPhrases().heartRateSensor(lost: true) == "Herzfrequenz verloren.")
        #expect(EnglishPhrases().heartRateSensor(lost: false) == "Heart rate back.")
    }
}
