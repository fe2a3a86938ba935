import Foundation
import RunWalkCore
import RunWalkDesktop
import RunWalkGPS
import RunWalkHost
import RunWalkIO
import RunWalkRuntime
import RunWalkStore

/// One session run from the app, through the same session service as `runwalk run`: the same
/// loop, voice, recorder, control socket (`runwalk control`, SIGUSR1/SIGUSR2), hands-free and
/// finishing (plan day marked), so it lands in `runwalk history` like any other.
final class LiveSession: @unchecked Sendable {
    /// How the session ended.
    struct Outcome: Sendable {
        /// The summary, nil when the workout never started.
        var summary: Summary?
        /// The stored session's number, nil when it was not recorded.
        var sessionID: Int64?
        /// Something that went wrong (no fix came; the recording was not saved whole).
        var message: String?
        /// News for the runner (the plan day done, what is next).
        var notes: [String] = []
    }

    private let handle: SessionHandle
    private let lock = Lock()
    private var pending: SessionStatus?

    /// Commands in, statuses out.
    var control: SessionControl { handle.control }

    private init(handle: SessionHandle) { self.handle = handle }

    /// Starts `workout` (or the plan's next day) from the GPS source `gps` (as `runwalk run --gps`
    /// spells it). Statuses reach `onStatus` on the main thread (coalesced: the newest only);
    /// `onEnd` once, at the end. Throws a one-line message when the source or the settings are
    /// wrong, or another session runs (naming it).
    static func start(workout: SessionRequest.WorkoutChoice, gps: String, speed: Double?, voice: Bool,
                      onStatus: @escaping @Sendable @MainActor (SessionStatus) -> Void,
                      onEnd: @escaping @Sendable @MainActor (Outcome) -> Void) throws -> LiveSession {
        var settings: UserSettings
        do { settings = try SettingsFile().load() } catch { throw AppError("\(error)") }
        settings.voice = voice ? "speaker" : "off"
        // A file track without a speed-up still runs in real time: the app is a live screen.
        let isFile = gps.hasPrefix("file:")
        var request = SessionRequest(workout: workout, source: .live(gps: gps), settings: settings,
                                     clock: .wallClock(speed: speed ?? (isFile ? 1 : nil)),
                                     defaultVoice: "speaker", program: "runwalk-app", recordedSource: "app:" + gps)
        request.signals = .pauseAndSkip
        // Lock screen and headset (MPRIS), notifications, haptics, the logind inhibitor and the
        // runner's music, as for `runwalk run`: hung off the session's control, each optional.
        let name: String? = switch workout {
        case .workout(let chosen): chosen.spec
        case .planDay(let day): day.workout.spec
        case .planNext: nil
        }
        request.handsFree = HandsFree.Options(settings: settings, workoutName: name, live: true)
        let warn: @Sendable (String) -> Void = { AppLog.warning($0) }
        let handle: SessionHandle
        do { handle = try SessionService.prepare(request, say: warn).start() } catch {
            throw AppError(error.message.capitalisedFirst)
        }
        let session = LiveSession(handle: handle)
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
        // A heart-rate strap (`hr =` in settings.conf, chosen on the settings page), as for `runwalk run`.
        let strap = HeartRateLink.start(settings.heartRateSensor ?? .off, control: handle.control, say: warn)
        let source = gps
        Task.detached {
            let outcome = await handle.outcome()
            strap?.stop()
            handle.close()
            let shown = Self.shown(outcome, source: source)
            MainLoop.post { onEnd(shown) }
        }
        return session
    }

    /// What the app shows of the service's outcome.
    private static func shown(_ outcome: SessionHandle.Outcome, source: String) -> Outcome {
        guard outcome.started else {
            return Outcome(summary: nil, sessionID: nil, message: outcome.result.driver.stopRequested
                           ? "Stopped before the workout began" : "No GPS fix came from \(source)")
        }
        if let failure = outcome.failure { return Outcome(summary: outcome.summary, sessionID: nil, message: failure.message.capitalisedFirst) }
        let notes = (outcome.planDay?.lines ?? []).map { line in
            String(line.hasPrefix("plan: ") ? line.dropFirst(6) : line[...]).capitalisedFirst
        }
        return Outcome(summary: outcome.summary, sessionID: outcome.sessionID,
                       message: outcome.savedWhole ? nil : "The session could not be saved whole (see the log)", notes: notes)
    }
}

extension String {
    /// The text with its first letter in capitals (a message that starts a sentence on screen).
    var capitalisedFirst: String { prefix(1).uppercased() + dropFirst() }
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
