import FoundationEssentials
import RunWalkCore
import RunWalkGPS
import RunWalkIO
import RunWalkRuntime
import RunWalkStore

/// The one session service under every front end. A front end translates its arguments or
/// widgets into a `SessionRequest`; the service resolves the workout (or the plan's next day),
/// makes the options from the settings and the plan, opens the voice and the source, and
/// records; `PreparedSession.start` then claims the control socket, maps the signals, starts
/// hands-free and the loop, and its handle ends in a typed outcome once the session is finished
/// (summary stored, plan day marked, voice done).
public enum SessionService {
    /// Everything a session needs, made from `request` before it starts. `say` hears every line
    /// for the user until `PreparedSession.messages` is set (the full-screen view holds them).
    public static func prepare(_ request: SessionRequest, say: @escaping @Sendable (String) -> Void) throws(SessionFailure) -> PreparedSession {
        let planDay: PlanDay?
        let workout: Workout
        switch request.workout {
        case .workout(let chosen): (workout, planDay) = (chosen, nil)
        case .planDay(let day): (workout, planDay) = (day.workout, day)
        case .planNext:
            let day = try PlanDay.next(environment: request.environment)
            say("\(request.program): \(day.announcement)")
            (workout, planDay) = (day.workout, day)
        }
        let speed = request.clock.speed
        let source: any LocationSource
        var loop: SessionLoop
        let voice: VoiceOutput
        let settings = request.settings
        switch request.source {
        case .live(let gps):
            let spec: GPSSourceSpec
            do { spec = try GPSSourceSpec(parsing: gps) } catch { throw .input(error.description) }
            if case .file(let path) = spec, !FileManager.default.fileExists(atPath: path) {
                throw .input("\(path): no such file")
            }
            voice = try openVoice(settings, request: request, speed: speed ?? 1, say: say)
            loop = liveLoop(request, workout: workout, options: options(settings, voice: voice, planDay: planDay))
            source = spec.makeSource(speed: speed)
        case .custom(let custom):
            voice = try openVoice(settings, request: request, speed: speed ?? 1, say: say)
            loop = liveLoop(request, workout: workout, options: options(settings, voice: voice, planDay: planDay))
            source = custom
        case .track(let path, let index, let script):
            if path != "-" {
                do { try NMEAFileSource.checkReadable(path) } catch { throw .input(error.description) }
            }
            voice = try openVoice(settings, request: request, speed: speed, say: say)
            loop = SessionLoop.replaying(workout, options: options(settings, voice: voice, planDay: planDay), script: script,
                                         autoPause: settings.autoPause ?? false)
            loop.readsSourceToEnd = true
            loop.settings.trackPace = speed
            source = NMEAFileSource(path: path, speed: speed, trackIndex: index)
        }
        return PreparedSession(request: request, workout: workout, planDay: planDay, loop: loop, source: source,
                               voice: voice, say: say)
    }

    /// A live session's loop: it starts at the first fix (after a countdown) or at once, on the
    /// wall clock (scaled) or the fixes' own times.
    static func liveLoop(_ request: SessionRequest, workout: Workout, options: SessionOptions) -> SessionLoop {
        var driver = SessionDriver.Settings(start: request.start, autoPause: request.settings.autoPause ?? false)
        driver.startCountdown = .seconds(request.countdownSeconds)
        switch request.clock {
        case .wallClock(let speed): driver.clock = .session(scale: speed ?? 1)
        case .trackTime(let speed):
            driver.clock = .track
            driver.trackPace = speed
        }
        var loop = SessionLoop(workout: workout, options: options, settings: driver)
        loop.wallClock = { UTCTime(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded())) }
        return loop
    }

    /// The voice the settings ask for (the speaker falls back to text when no audio server answers).
    static func openVoice(_ settings: UserSettings, request: SessionRequest, speed: Double?,
                          say: @escaping @Sendable (String) -> Void) throws(SessionFailure) -> VoiceOutput {
        do {
            return try VoiceOutput(try VoiceMode.parse(settings.voice ?? request.defaultVoice), language: settings.language ?? .en,
                                   speed: speed, duck: settings.duck ?? .standard, warn: say)
        } catch {
            throw SessionFailure(kind: error.input ? .input : .runtime, message: error.message)
        }
    }

    /// Session options for `settings`, with the voice's speech timing and the plan day's introduction.
    public static func options(_ settings: UserSettings, voice: VoiceOutput, planDay: PlanDay?) -> SessionOptions {
        var options = SessionOptions()
        options.units = settings.units ?? .metric
        options.language = settings.language ?? .en
        options.enabledCues = settings.enabledCues
        options.speechTiming = voice.timing
        options.heartRateZones = HeartRateZones(settings: settings)
        options.saysHeartRateAtSplits = settings.voiceHeartRate ?? false
        if let planDay { options.introduction = planDay.plan.introduction(for: planDay.slot, language: options.language) }
        return options
    }

    /// Closes the sessions a crash left open (the kernel dropped their locks) and returns them.
    /// Looks read-only first, so the common case (nothing to recover) writes nothing.
    public static func recoverAbandoned(environment: [String: String] = ProcessInfo.processInfo.environment) -> RecoveryReport {
        let location = StoreLocation.fromEnvironment(environment)
        let options = RunWalkStore.Options.fromEnvironment(environment)
        guard let reader = try? RunWalkStore.openForReading(location: location, options: options),
              let abandoned = try? reader.abandonedSessions(), !abandoned.isEmpty else { return RecoveryReport() }
        do {
            guard let store = try RunWalkStore.openIfPresent(location: location, options: options) else { return RecoveryReport() }
            return RecoveryReport(recovered: try store.recoverAbandonedSessions())
        } catch {
            return RecoveryReport(problem: "could not check \(UserText.path(location.databasePath)) for interrupted sessions: "
                                  + ((error as? StoreError)?.description ?? FileErrorText.reason(error)))
        }
    }
}

/// What recovery at start found.
public struct RecoveryReport: Sendable {
    /// The sessions closed, each with its summary rebuilt from the recorded fixes.
    public var recovered: [RunWalkStore.Recovered] = []
    /// Why the store could not be checked (the front end goes on).
    public var problem: String?

    /// The app's words for each: "Recovered your run of 20m run: 2.31 km in 12:05".
    public var appLines: [String] {
        recovered.map { item in
            let s = item.summary
            return "Recovered your run of \(item.info.workout): \(SummaryText.distance(s.distanceMetres, s.units)) in \(TimeText.clock(s.durationSeconds))"
        }
    }
}
