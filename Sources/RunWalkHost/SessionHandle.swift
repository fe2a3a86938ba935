import FoundationEssentials
import RunWalkCore
import RunWalkDesktop
import RunWalkIO
import RunWalkRuntime
import RunWalkStore

/// A running session: its control (commands in, statuses out), its status stream, and its
/// outcome once it is finished and stored.
public final class SessionHandle: @unchecked Sendable {
    /// How the session ended.
    public struct Outcome: Sendable {
        /// What the loop returned (the driver: stop requested, lines bad, the source's failure).
        public var result: SessionLoop.Result
        /// The summary, nil when the workout never started.
        public var summary: Summary?
        /// The summary as stored and as `--json` prints it.
        public var summaryJSON: String?
        /// What the store made of it (nil: not recorded).
        public var stored: SessionRecorder.Outcome?
        /// The plan day marked (or not) by this session.
        public var planDay: PlanDay.Result?
        /// Why a track (or `file:` source) broke off, when it did.
        public var sourceFailure: String?
        /// A voice that failed (a partial WAV): the session itself is saved.
        public var voiceFailure: VoiceOutputError?
        /// A summary that could not be encoded (nothing was stored).
        public var failure: SessionFailure?

        public var started: Bool { result.started }
        /// The stored session's number; nil when it was not recorded (or not saved).
        public var sessionID: Int64? { stored?.sessionID }
        /// Whether the recording could not be saved whole.
        public var savedWhole: Bool { stored.map { $0.sessionID != nil && $0.rowsLost == 0 } ?? true }
    }

    public let control: SessionControl
    public let planDay: PlanDay?
    /// Hands-free around the session (nil when the request asked for none).
    public let handsFree: HandsFree?
    private let server: ControlServer?
    private let stops: StopSignals?
    private let task: Task<Outcome, Never>

    init(control: SessionControl, planDay: PlanDay?, handsFree: HandsFree?, server: ControlServer?, stops: StopSignals?,
         task: Task<Outcome, Never>) {
        self.control = control
        self.planDay = planDay
        self.handsFree = handsFree
        self.server = server
        self.stops = stops
        self.task = task
    }

    /// The socket `runwalk control` reaches the session on; nil when it has none.
    public var controlSocketPath: String? { server?.path }

    /// Every status from now to the session's end.
    public var statuses: AsyncStream<SessionStatus> {
        let control = self.control
        return AsyncStream { continuation in
            let token = control.observe { status in
                continuation.yield(status)
                if status.isFinished { continuation.finish() }
            }
            continuation.onTermination = { _ in control.removeObserver(token) }
        }
    }

    /// The outcome, once the session is finished, stored and its voice done.
    public func outcome() async -> Outcome { await task.value }

    /// The outcome, waited for on a thread that is not one of the cooperative pool's (a CLI command's `run()`).
    public func waitForOutcome() -> Outcome {
        let task = self.task
        return SessionHost.wait { await task.value }
    }

    /// Stops serving `runwalk control` (the front end has shown the outcome).
    public func close() { server?.stop() }
}

/// The session's end: the summary stored, the plan day marked, the voice finished.
struct SessionFinisher: Sendable {
    let request: SessionRequest
    let workout: Workout
    let planDay: PlanDay?
    let voice: VoiceOutput
    let host: SessionHost
    let messages: @Sendable (String) -> Void
    let onSaved: @Sendable () -> Void
    let isTrack: Bool

    func finish(_ result: SessionLoop.Result, sourceFailure: String?) -> SessionHandle.Outcome {
        var outcome = SessionHandle.Outcome(result: result, sourceFailure: sourceFailure)
        guard result.started else {
            // A track without a single fix is not a track: nothing is kept.
            if isTrack, result.driver.sourceFailure == nil { _ = host.recorder?.discard() }
            return outcome
        }
        if isTrack, result.driver.sourceFailure != nil {
            // The file could not be read to its end: keep what was recorded, as incomplete.
            outcome.stored = host.recorder?.finishFromRecording(state: .incomplete)
            outcome.sourceFailure = result.driver.sourceFailure
            return outcome
        }
        outcome.summary = result.summary
        let summaryJSON: String
        do { summaryJSON = try SummaryJSON.encode(result.summary) } catch {
            outcome.failure = .runtime("the summary could not be encoded: \(error)")
            return outcome
        }
        outcome.summaryJSON = summaryJSON
        // Stored first, before the voice has finished speaking and before anything is printed:
        // a session that was stopped is finalised however long those take.
        outcome.stored = host.recorder?.finish(summary: result.summary, summaryJSON: summaryJSON)
        if let planDay {
            let done = request.settings.planDoneFraction ?? RunCompletion.defaultDoneFraction
            let marked = planDay.finish(result.summary, sessionID: outcome.stored?.sessionID, doneFraction: done,
                                        environment: request.environment)
            for line in marked.lines { messages("\(request.program): \(line)") }
            outcome.planDay = marked
        }
        onSaved()
        do {
            try voice.finish(sessionSeconds: result.summary.durationSeconds, stopped: result.driver.stopRequested)
        } catch { outcome.voiceFailure = error }
        return outcome
    }
}
