import CFeedback
import CGio
import RunWalkCore

/// Haptic (or, by the device's feedback profile, sound or LED) feedback through feedbackd.
///
/// libfeedback is process-global (`lfb_init` once); it keeps a proxy that dispatches on the
/// thread-default context it was created on, so it is set up and used on the GLib thread.
final class Haptics: @unchecked Sendable {
    private var planner = HapticCuePlanner()
    private var failed = false
    private let warn: @Sendable (String) -> Void

    private init(warn: @escaping @Sendable (String) -> Void) { self.warn = warn }

    /// feedbackd's event name for each cue: names of its standard theme, picked for distinct
    /// vibration patterns in the "quiet" profile (periodic for run, rumbles for the rest).
    static func eventName(_ cue: HapticCue) -> String {
        switch cue {
        case .runStarted: "alarm-clock-elapsed"
        case .walkStarted: "timeout-completed"
        case .otherPhaseStarted: "message-new-instant"
        case .countdownTick: "button-pressed"
        case .workoutEnded: "phone-incoming-call"
        }
    }

    /// Starts libfeedback for `appID`; the error says why haptics are off.
    static func start(appID: String, warn: @escaping @Sendable (String) -> Void) -> Result<Haptics, DesktopError> {
        var error: UnsafeMutablePointer<GError>?
        if lfb_is_initted() == 0, lfb_init(appID, &error) == 0 {
            return .failure(DesktopError("libfeedback: \(GV.feedbackMessage(error))"))
        }
        return .success(Haptics(warn: warn))
    }

    /// Feeds a snapshot; triggers the cues it calls for. On the GLib thread.
    func update(_ snapshot: HapticCuePlanner.Snapshot) {
        for cue in planner.handle(snapshot) { trigger(cue) }
    }

    private func trigger(_ cue: HapticCue) {
        guard !failed, let event = lfb_event_new(Self.eventName(cue)) else { return }
        defer { g_object_unref(UnsafeMutableRawPointer(event)) }
        var error: UnsafeMutablePointer<GError>?
        if lfb_event_trigger_feedback(event, &error) == 0 {
            // Once: feedbackd went away mid-run (or refused); the run goes on without haptics.
            failed = true
            warn("runwalk: haptics off: feedbackd: \(GV.feedbackMessage(error))")
        }
    }

    /// Ends libfeedback.
    func stop() {
        if lfb_is_initted() != 0 { lfb_uninit() }
    }
}

extension GV {
    /// The message of a GError from libfeedback, and frees it.
    static func feedbackMessage(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }
}
