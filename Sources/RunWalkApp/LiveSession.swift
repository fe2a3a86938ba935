import Foundation
import RunWalkCore
import RunWalkDesktop
import RunWalkGPS
import RunWalkHost
import RunWalkIO
import RunWalkRuntime
import RunWalkStore

/// One session run from the app: the same loop, voice and recorder as `runwalk run`, so it
/// lands in `runwalk history` and `runwalk report last` like any other.
final class LiveSession: @unchecked Sendable {
    /// How the session ended.
    struct Outcome: Sendable {
        /// The summary, nil when the workout never started.
        var summary: Summary?
        /// The stored session's number, nil when it was not recorded.
        var sessionID: Int64?
        /// Something the runner should read (no fix came; the recording was not saved whole).
        var message: String?
    }

    /// Commands in, statuses out.
    let control = SessionControl()
    let workout: Workout
    private let lock = Lock()
    private var pending: SessionStatus?

    private init(workout: Workout) { self.workout = workout }

    /// Starts `workout` from the GPS source `gps` (as `runwalk run --gps` spells it). Statuses
    /// reach `onStatus` on the main thread (coalesced: the newest only); `onEnd` once, at the end.
    /// Throws a one-line message when the source or the settings are wrong.
    static func start(workout: Workout, gps: String, speed: Double?, voice: Bool,
                      onStatus: @escaping @Sendable @MainActor (SessionStatus) -> Void,
                      onEnd: @escaping @Sendable @MainActor (Outcome) -> Void) throws -> LiveSession {
        let spec: GPSSourceSpec
        do { spec = try GPSSourceSpec(parsing: gps) } catch { throw AppError(error.description) }
        if case .file(let path) = spec, !FileManager.default.fileExists(atPath: path) {
            throw AppError("\(UserText.path(path)): no such file")
        }
        let settings: UserSettings
        do { settings = try SettingsFile().load() } catch { throw AppError("\(error)") }
        let warn: @Sendable (String) -> Void = { AppLog.warning($0) }
        let voiceOutput: VoiceOutput
        do {
            voiceOutput = try VoiceOutput(voice ? .speaker : .off, language: settings.language ?? .en, speed: speed,
                                          duck: settings.duck ?? .standard, warn: warn)
        } catch { throw AppError(error.message) }
        var options = SessionOptions()
        options.units = settings.units ?? .metric
        options.language = settings.language ?? .en
        options.enabledCues = settings.enabledCues
        options.speechTiming = voiceOutput.timing
        let isFile: Bool = { if case .file = spec { return true } else { return false } }()
        var driverSettings = SessionDriver.Settings(start: .fix, autoPause: settings.autoPause ?? false)
        // A file track without a speed-up still runs in real time: the app is a live screen.
        driverSettings.clock = .session(scale: speed ?? 1)
        var loop = SessionLoop(workout: workout, options: options, settings: driverSettings)
        loop.wallClock = { UTCTime(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded())) }
        let source = spec.makeSource(speed: speed ?? (isFile ? 1 : nil))
        let host = SessionHost(voice: voiceOutput, recorder: {
            LiveRecording.recorder(workout: workout, options: options, source: "app:" + gps, warn: warn)
        })
        let session = LiveSession(workout: workout)
        session.control.observe { [session] status in
            // Only the newest status matters to the screen; one main-loop visit carries it.
            let schedule: Bool = session.lock.withLock {
                defer { session.pending = status }
                return session.pending == nil
            }
            guard schedule else { return }
            MainLoop.post {
                let latest = session.lock.withLock { () -> SessionStatus? in
                    defer { session.pending = nil }
                    return session.pending
                }
                if let latest { onStatus(latest) }
            }
        }
        let hooks = host.hooks(message: { warn("runwalk-app: gps: \($0)") })
        let control = session.control
        // Lock screen and headset (MPRIS), notifications, haptics, the logind inhibitor and the
        // runner's music, as for `runwalk run`: hung off the session's control, each optional.
        let handsFree = HandsFree.start(control: control, options: HandsFree.Options(settings: settings, workoutName: workout.spec, live: true),
                                        warn: warn)
        Task.detached {
            let result = await loop.run(source: source, clock: ContinuousClock(), control: control, hooks: hooks)
            handsFree.stop()
            let outcome = Self.finish(result, voice: voiceOutput, host: host, source: source.description)
            MainLoop.post { onEnd(outcome) }
        }
        return session
    }

    /// Stores the summary exactly as the CLI does (`SessionArguments.finish`).
    private static func finish(_ result: SessionLoop.Result, voice: VoiceOutput, host: SessionHost, source: String) -> Outcome {
        guard result.started else {
            return Outcome(summary: nil, sessionID: nil, message: result.driver.stopRequested
                           ? "Stopped before the workout began" : "No GPS fix came from \(source)")
        }
        do { try voice.finish(sessionSeconds: result.summary.durationSeconds) } catch { AppLog.warning("runwalk-app: voice: \(error.message)") }
        let summaryJSON: String
        do { summaryJSON = try SummaryJSON.encode(result.summary) } catch {
            return Outcome(summary: result.summary, sessionID: nil, message: "The summary could not be encoded: \(error)")
        }
        guard let recorder = host.recorder else { return Outcome(summary: result.summary, sessionID: nil, message: nil) }
        let stored = recorder.finish(summary: result.summary, summaryJSON: summaryJSON)
        let message = stored.sessionID == nil || stored.rowsLost > 0 ? "The session could not be saved whole (see the log)" : nil
        return Outcome(summary: result.summary, sessionID: stored.sessionID, message: message)
    }
}

/// A problem to show the user in one line.
struct AppError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The app's standard error (warnings and cues as text); write(2), which cannot trap on EPIPE.
enum AppLog {
    static func warning(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(2, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if n <= 0 { return }
                offset += n
            }
        }
    }
}
