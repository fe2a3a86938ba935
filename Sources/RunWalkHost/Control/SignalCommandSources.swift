import Dispatch
import FoundationEssentials
import RunWalkIO
import RunWalkRuntime
#if canImport(Glibc)
import Glibc
#endif

/// Turns signals into session commands: SIGUSR1 toggles pause, SIGUSR2 skips, SIGINT,
/// SIGTERM and SIGQUIT stop (so the session is finalised, not killed; SIGQUIT is a user's
/// Ctrl-\, not a crash, so it gets no backtrace either). SIGHUP is ignored: a closed
/// terminal must not end a live workout, it goes on headless.
///
/// Each signal is set to SIG_IGN first, so its default action (ending the process) never
/// runs, and a DispatchSource reports it on a queue instead of in a signal handler.
public final class SignalCommandSources: @unchecked Sendable {
    /// The signals that become commands.
    public static let handledSignals: [Int32] = [SIGUSR1, SIGUSR2, SIGINT, SIGTERM, SIGQUIT]

    private let lock = Lock()
    private var sources: [DispatchSourceSignal] = []

    /// The command `signal` asks for; nil for a signal that is not a command.
    public static func command(for signal: Int32) -> SessionCommand? {
        switch signal {
        case SIGUSR1: .toggle
        case SIGUSR2: .skip
        case SIGINT, SIGTERM, SIGQUIT: .stop
        default: nil
        }
    }

    /// What is said on standard error when `signal` arrives; nil for the quiet ones.
    public static func notice(for signal: Int32) -> String? {
        switch signal {
        case SIGINT: "runwalk: interrupted; stopping the workout"
        case SIGTERM: "runwalk: terminated; stopping the workout"
        case SIGQUIT: "runwalk: quit; stopping the workout"
        default: nil
        }
    }

    /// Starts forwarding `signals` to `control`; `say` gets the notices. `armed` is called
    /// once every source is registered: libdispatch registers them asynchronously, and until
    /// then a signal meets SIG_IGN and is lost (tests wait for it; `run` need not).
    ///
    /// `stopped`, when given, is called for every stop signal with whether one came before; a
    /// repeated one is not sent as a command (the caller ends the process: a second Ctrl-C is
    /// the user saying the first did not work).
    public init(control: SessionControl, signals: [Int32] = SignalCommandSources.handledSignals,
                armed: (@Sendable () -> Void)? = nil, say: @escaping @Sendable (String) -> Void,
                stopped: (@Sendable (_ signal: Int32, _ repeated: Bool) -> Void)? = nil) {
        signal(SIGHUP, SIG_IGN)
        var made: [DispatchSourceSignal] = []
        let pending = signals.filter { Self.command(for: $0) != nil }
        let countdown = ArmCountdown(count: pending.count, armed: armed)
        let stops = StopCount()
        for number in pending {
            guard let command = Self.command(for: number) else { continue }
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setRegistrationHandler { countdown.oneArmed() }
            source.setEventHandler {
                if command == .stop, let stopped {
                    let repeated = stops.next()
                    if repeated { return stopped(number, true) }
                    if let notice = Self.notice(for: number) { say(notice) }
                    // Told before the command is sent, which may end the session at once.
                    stopped(number, false)
                    return control.send(command)
                }
                if let notice = Self.notice(for: number) { say(notice) }
                control.send(command)
            }
            source.resume()
            made.append(source)
        }
        lock.withLock { sources = made }
    }

    /// Stops forwarding (the signals stay ignored, so a late one cannot kill the process
    /// while it finishes the session).
    public func cancel() {
        let ended = lock.withLock {
            defer { sources = [] }
            return sources
        }
        for source in ended { source.cancel() }
    }
}

/// Counts stop signals: whether one came before this one.
private final class StopCount: @unchecked Sendable {
    private let lock = Lock()
    private var count = 0

    func next() -> Bool {
        lock.withLock {
            count += 1
            return count > 1
        }
    }
}

/// Calls `armed` when the last of `count` sources has been registered.
private final class ArmCountdown: @unchecked Sendable {
    private let lock = Lock()
    private var left: Int
    private let armed: (@Sendable () -> Void)?

    init(count: Int, armed: (@Sendable () -> Void)?) {
        left = count
        self.armed = armed
        if count == 0 { armed?() }
    }

    func oneArmed() {
        let last: Bool = lock.withLock {
            left -= 1
            return left == 0
        }
        if last { armed?() }
    }
}
