import Dispatch
import FoundationEssentials
import RunWalkCore
import RunWalkDesktop
import RunWalkGPS
import RunWalkIO
import RunWalkRuntime
import RunWalkStore
#if canImport(Glibc)
import Glibc
#endif

/// A session made from a request and not yet started: the front end may hang its own views on
/// `control` and route `messages` (the full-screen view holds them) before `start`.
public final class PreparedSession: @unchecked Sendable {
    public let request: SessionRequest
    public let workout: Workout
    /// The plan day this session runs, when it runs one.
    public let planDay: PlanDay?
    public let voice: VoiceOutput
    /// Commands in, statuses out.
    public let control = SessionControl()
    /// Lines for the user (the GPS, hands-free, the plan day); `say` from `prepare` until set.
    public var messages: @Sendable (String) -> Void
    /// Called once the session is in the store (or is not recorded): what is left is output.
    public var onSaved: @Sendable () -> Void = {}
    let loop: SessionLoop
    let source: any LocationSource
    private let say: @Sendable (String) -> Void
    private var server: ControlServer?
    private var claimed = false
    /// Stop signals, mapped from the moment the session is prepared (a Ctrl-C before it starts
    /// stops it, never kills the process), then held by the handle: a late stop still gets its grace.
    private let stops: StopSignals?

    init(request: SessionRequest, workout: Workout, planDay: PlanDay?, loop: SessionLoop, source: any LocationSource,
         voice: VoiceOutput, say: @escaping @Sendable (String) -> Void) {
        self.request = request
        self.workout = workout
        self.planDay = planDay
        self.loop = loop
        self.source = source
        self.voice = voice
        self.say = say
        messages = say
        stops = if case .all = request.signals { StopSignals(control: control) } else { nil }
    }

    /// What the source is, as the user reads it ("gpsd at localhost:2947", a file).
    public var sourceDescription: String { source.description }

    /// The session options (units, language, cues, the plan day's introduction).
    public var options: SessionOptions { loop.options }

    /// Claims the user's control socket when the request asks for it: throws, naming the
    /// running session, when another one answers there. `start` claims it when not done yet.
    public func claimControl() throws(SessionFailure) {
        guard !claimed else { return }
        claimed = true
        guard request.controlSocket else { return }
        server = try ControlClaim.claim(control: control, program: request.program, environment: request.environment, warn: say)
    }

    /// Starts the session on the wall clock (`clock`: a manual one in tests): claims the control
    /// socket, maps the signals, starts hands-free and the loop.
    public func start(clock: any LoopClock = ContinuousClock()) throws(SessionFailure) -> SessionHandle {
        try claimControl()
        let messages = self.messages
        let signals: SignalCommandSources? = switch request.signals {
        case .none, .all: nil
        case .pauseAndSkip: SignalCommandSources(control: self.control, signals: [SIGUSR1, SIGUSR2], say: messages)
        }
        let stops = self.stops
        let saved = onSaved
        let handsFree = request.handsFree.map { HandsFree.start(control: self.control, options: $0, warn: messages) }
        let recorder = makeRecorderFactory()
        let host = SessionHost(voice: voice, recorder: recorder)
        let isTrack: Bool = { if case .track = request.source { return true } else { return false } }()
        let gpsPrefix = isTrack ? "" : "\(request.program): gps: "
        let hooks = host.hooks(message: { messages(gpsPrefix + $0) })
        let finisher = SessionFinisher(request: request, workout: workout, planDay: planDay, voice: voice, host: host,
                                       messages: messages, onSaved: {
                                           stops?.sessionSaved()
                                           saved()
                                       }, isTrack: isTrack)
        let (loop, source, control) = (self.loop, self.source, self.control)
        let task = Task<SessionHandle.Outcome, Never> {
            let result = await loop.run(source: source, clock: clock, control: control, hooks: hooks)
            handsFree?.stop()
            signals?.cancel()
            return finisher.finish(result, sourceFailure: (source as? NMEAFileSource)?.failure)
        }
        return SessionHandle(control: control, planDay: planDay, handsFree: handsFree, server: server, stops: stops, task: task)
    }

    /// The recorder the store opens at the session's first event; nil when not recorded.
    private func makeRecorderFactory() -> (() -> SessionRecorder)? {
        guard request.record else { return nil }
        let (environment, workout, options, source, warn) = (request.environment, workout, loop.options, request.recordedSource, say)
        return {
            SessionRecorder(location: .fromEnvironment(environment), storeOptions: .fromEnvironment(environment),
                            session: .init(workout: workout, options: options, source: source), warn: warn)
        }
    }
}
