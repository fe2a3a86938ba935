import Foundation
import RunWalkCore
import RunWalkHost
import RunWalkIO
import RunWalkRuntime
import RunWalkStore
import Testing

/// The session service under every front end, driven by a manual clock and a scripted source:
/// the request in, the handle (control, statuses, socket, outcome) out.
@Suite struct SessionServiceTests {
    /// A private data, config and socket folder, removed at the end.
    final class Folders {
        let root: URL
        init() throws {
            root = URL(fileURLWithPath: "/tmp").appendingPathComponent("rw-host-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        var environment: [String: String] {
            ["RUNWALK_DATA_DIR": root.appendingPathComponent("data").path,
             "XDG_CONFIG_HOME": root.appendingPathComponent("config").path,
             "XDG_RUNTIME_DIR": root.path,
             "RUNWALK_CONTROL_SOCKET": root.appendingPathComponent("c.sock").path,
             "RUNWALK_TODAY": "2026-11-02"]
        }
        deinit { try? FileManager.default.removeItem(at: root) }
    }

    /// A live source that never yields a fix until the test ends it.
    final class QuietSource: LocationSource, @unchecked Sendable {
        let description = "a quiet test source"
        private let stream: AsyncStream<LocationEvent>
        private let continuation: AsyncStream<LocationEvent>.Continuation
        init() { (stream, continuation) = AsyncStream<LocationEvent>.makeStream() }
        func events() -> AsyncStream<LocationEvent> { stream }
    }

    /// Lines the service said.
    final class Said: @unchecked Sendable {
        private let lock = NSLock()
        private var kept: [String] = []
        func say(_ line: String) { lock.withLock { kept.append(line) } }
        var lines: [String] { lock.withLock { kept } }
    }

    static func settings() -> UserSettings {
        var settings = UserSettings()
        settings.voice = "off"
        return settings
    }

    /// Waits (yielding, never on the wall clock) for `condition`, up to a bound that fails the test.
    static func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<200_000 {
            if condition() { return true }
            await Task.yield()
        }
        return condition()
    }

    @Test func manualClockDrivesPhasesTheSocketAnswersAndASecondStartIsRefused() async throws {
        let folders = try Folders()
        let workout = try Workout(parsing: "10s run, 10s walk")
        var request = SessionRequest(workout: .workout(workout), source: .custom(QuietSource()), settings: Self.settings(),
                                     clock: .realTime, defaultVoice: "off", program: "runwalk", recordedSource: "test:quiet",
                                     environment: folders.environment)
        request.start = .now
        let said = Said()
        let clock = ManualClock()
        let handle = try SessionService.prepare(request, say: { said.say($0) }).start(clock: clock)
        defer { handle.close() }
        #expect(await Self.eventually { handle.control.status?.phase?.index == 0 })

        // The manual clock, not the wall clock, moves the workout on.
        clock.advance(by: .seconds(12))
        #expect(await Self.eventually { handle.control.status?.phase?.index == 1 })

        // `runwalk control status` reaches it on the socket the request's environment names.
        let path = try #require(handle.controlSocketPath)
        guard case .ok(let status)? = try? ControlClient(path: path).send(.status) else {
            Issue.record("no status on \(path)")
            return
        }
        #expect(status?.workout == "10s run, 10s walk")

        // One session at a time: a second start names the one that runs.
        var second = request
        second.workout = .workout(try Workout(parsing: "5m walk"))
        second.source = .custom(QuietSource())
        let refusal = #expect(throws: SessionFailure.self) {
            _ = try SessionService.prepare(second, say: { _ in }).start(clock: ManualClock())
        }
        #expect(refusal?.running?.workout == "10s run, 10s walk")
        #expect(refusal?.running?.pid == getpid())
        #expect(refusal?.message.hasPrefix("another session is running: 10s run, 10s walk in ") == true)

        handle.control.send(.stop)
        let outcome = await handle.outcome()
        #expect(outcome.started)
        #expect(outcome.summary?.phases.count == 2)
        #expect(outcome.sessionID != nil)
        #expect(outcome.planDay == nil)
    }

    @Test func thePlansNextDayIsRunAndMarkedDone() async throws {
        let folders = try Folders()
        let environment = folders.environment
        let store = try RunWalkStore(location: .fromEnvironment(environment))
        let plan = try #require(TrainingPlan.builtIns.first { $0.name == "c25k" })
        _ = try store.startEnrolment(planName: plan.name, planJSON: plan.json, startDay: try #require(CalendarDay(parsing: "2026-11-02")),
                                     weekdays: [.mon, .wed, .fri])
        let track = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("SampleTracks/track-loop.nmea").path
        var request = SessionRequest(workout: .planNext, source: .track(path: track, index: nil, script: []), settings: Self.settings(),
                                     clock: .asFastAsPossible, defaultVoice: "off", program: "runwalk", recordedSource: "replay:" + track,
                                     environment: environment)
        request.controlSocket = false
        let said = Said()
        let prepared = try SessionService.prepare(request, say: { said.say($0) })
        #expect(prepared.planDay?.slot == TrainingPlan.Slot(week: 0, day: 0))
        // The day's introduction is the session's first cue.
        #expect(prepared.options.introduction == plan.introduction(for: TrainingPlan.Slot(week: 0, day: 0)))
        let outcome = await (try prepared.start()).outcome()
        #expect(outcome.planDay?.mark == .done)
        #expect(outcome.sessionID != nil)
        #expect(said.lines.contains { $0.hasPrefix("runwalk: plan: week 1, day 1 of Couch to 5K done (") })
        #expect(try PlanDay.next(environment: environment).slot == TrainingPlan.Slot(week: 0, day: 1))
    }

    @Test func withoutAPlanNextIsTheRunnersMistake() throws {
        let folders = try Folders()
        let request = SessionRequest(workout: .planNext, source: .custom(QuietSource()), settings: Self.settings(),
                                     clock: .realTime, defaultVoice: "off", program: "runwalk", recordedSource: "test",
                                     environment: folders.environment)
        let failure = #expect(throws: SessionFailure.self) { _ = try SessionService.prepare(request, say: { _ in }) }
        #expect(failure?.kind == .input)
    }
}
