import CGio
import FoundationEssentials
import RunWalkCore
import RunWalkRuntime

/// Hands-free controls and feedback for one session, hung off its `SessionControl` (not a
/// front end): the MPRIS player (lock screen, headset, `playerctl`), phase notifications with
/// Pause and Skip, haptics through feedbackd, a logind inhibitor against suspend, and a client
/// of the runner's own music player.
///
/// Each part is optional: without a session bus, feedbackd, a notification server or logind
/// the session goes on and `warn` hears once what is missing. Everything runs on a GLib main
/// loop of its own, so it works in the CLI and inside a GTK app alike.
public final class HandsFree: @unchecked Sendable {
    /// What to switch on.
    public struct Options: Sendable, Equatable {
        /// Export the session as an MPRIS player.
        public var mpris = true
        /// Show a notification at each phase change, with Pause and Skip actions.
        public var notifications = true
        /// Feel phase changes, the last seconds and the end through feedbackd.
        public var haptics = true
        /// Hold a logind sleep/idle inhibitor until `stop()` (live sessions only).
        public var inhibitSleep = false
        /// Follow the runner's music player (its title and artist, play/pause, next).
        public var followMusic = true
        /// A URI (or a file path) to open on the runner's music player at the start.
        public var musicURI: String?
        /// Pause the runner's music player at the end of the session (when `musicURI` started it).
        public var pauseMusicAtEnd = true
        /// The application id given to feedbackd and notification servers.
        public var appID = "org.runwalk.RunWalk"
        /// The session bus's address (nil: the environment's, as every D-Bus client finds it).
        public var sessionBusAddress: String?
        /// The system bus's address (nil: the environment's, else the standard socket).
        public var systemBusAddress: String?

        /// Everything on except the inhibitor (which only live sessions take).
        public init() {}
    }

    private let thread: GLibThread
    private let control: SessionControl
    private let options: Options
    private let warn: @Sendable (String) -> Void
    private var sessionBus: BusConnection?
    private var systemBus: BusConnection?
    private var mpris: MPRISServer?
    private var notifier: PhaseNotifier?
    private var haptics: Haptics?
    private var inhibitor: SleepInhibitor?
    private var music: MusicClient?
    private var observer: Int?
    private let lock = Lock()
    private var stopped = false
    /// Set on the GLib thread by `stop()`: a status still queued behind it changes nothing.
    private var ended = false

    private init(control: SessionControl, options: Options, warn: @escaping @Sendable (String) -> Void) {
        thread = GLibThread(name: "runwalk-desktop")
        self.control = control
        self.options = options
        self.warn = warn
    }

    /// Starts what `options` asks for around `control`'s session; `warn` hears (once each) what is missing.
    public static func start(control: SessionControl, options: Options = Options(),
                             warn: @escaping @Sendable (String) -> Void) -> HandsFree {
        let handsFree = HandsFree(control: control, options: options, warn: warn)
        let showsStatus = handsFree.thread.sync { () -> Bool in
            handsFree.setUp()
            return handsFree.mpris != nil || handsFree.notifier != nil || handsFree.haptics != nil
        }
        // Held until stop() removes the observer; statuses are handled on the GLib thread in order.
        // Nothing to show them (no session bus, all off): no observer, so no wake-up per status.
        if showsStatus {
            handsFree.observer = control.observe { status in
                handsFree.thread.async { handsFree.update(status) }
            }
        }
        return handsFree
    }

    /// The bus name the MPRIS player owns (nil when there is none).
    public var mprisName: String? { thread.sync { self.mpris?.busName } }

    /// The runner's music player being followed, if any.
    public var musicPlayer: MusicPlayer? { thread.sync { self.music.map { MusicPlayer(client: $0, thread: self.thread) } } }

    /// Calls `handler` (on the hands-free thread; keep it short) whenever what the runner's
    /// music player plays changes; nil when no player is followed.
    public func observeMusic(_ handler: @escaping @Sendable (NowPlaying?) -> Void) {
        thread.sync { self.music?.observe(handler) }
    }

    private func setUp() {
        if options.inhibitSleep {
            switch BusConnection.open(G_BUS_TYPE_SYSTEM, address: options.systemBusAddress) {
            case .failure(let failure): warn("runwalk: the device may suspend mid-run: \(failure)")
            case .success(let bus):
                systemBus = bus
                switch SleepInhibitor.take(on: bus, why: "Workout in progress") {
                case .success(let taken): inhibitor = taken
                case .failure(let failure): warn("runwalk: the device may suspend mid-run: \(failure)")
                }
            }
        }
        guard options.mpris || options.notifications || options.haptics || options.followMusic || options.musicURI != nil else { return }
        let bus: BusConnection
        switch BusConnection.open(G_BUS_TYPE_SESSION, address: options.sessionBusAddress) {
        case .success(let opened): bus = opened
        case .failure(let failure):
            warn("runwalk: no lock-screen controls, notifications, haptics or music: \(failure)")
            return
        }
        sessionBus = bus
        if options.mpris {
            switch MPRISServer.start(bus: bus, control: control, thread: thread) {
            case .success(let server): mpris = server
            case .failure(let failure): warn("runwalk: no lock-screen controls: \(failure)")
            }
        }
        if options.notifications {
            switch PhaseNotifier.start(bus: bus, control: control, appName: "RunWalk", warn: warn) {
            case .success(let started): notifier = started
            case .failure(let failure): warn("runwalk: no notifications: \(failure)")
            }
        }
        if options.haptics {
            if !Self.serviceAvailable("org.sigxcpu.Feedback", on: bus) {
                warn("runwalk: no haptics: feedbackd (org.sigxcpu.Feedback) is not on the session bus")
            } else {
                switch Haptics.start(appID: options.appID, warn: warn) {
                case .success(let started): haptics = started
                case .failure(let failure): warn("runwalk: no haptics: \(failure)")
                }
            }
        }
        if options.followMusic || options.musicURI != nil {
            music = MusicClient.start(bus: bus, ownName: mpris?.busName, uri: options.musicURI, warn: warn)
        }
    }

    /// Whether `name` has an owner on `bus` or can be started by it (D-Bus activation).
    static func serviceAvailable(_ name: String, on bus: BusConnection) -> Bool {
        func ask(_ method: String, _ parameters: OpaquePointer?) -> OpaquePointer? {
            try? bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", method, parameters).get()
        }
        if let reply = ask("NameHasOwner", GV.tuple([GV.string(name)])) {
            defer { g_variant_unref(reply) }
            if let has = GV.child(reply, 0) {
                defer { g_variant_unref(has) }
                if g_variant_get_boolean(has) != 0 { return true }
            }
        }
        guard let reply = ask("ListActivatableNames", nil), let names = GV.child(reply, 0) else { return false }
        defer { g_variant_unref(reply); g_variant_unref(names) }
        for index in 0..<Int(g_variant_n_children(names)) {
            guard let child = GV.child(names, index) else { continue }
            defer { g_variant_unref(child) }
            if GV.text(child) == name { return true }
        }
        return false
    }

    private func update(_ status: SessionStatus) {
        guard !ended else { return }
        mpris?.update(status)
        notifier?.update(status)
        haptics?.update(HapticCuePlanner.Snapshot(
            phaseIndex: status.phase?.index, phaseKind: status.phase?.kind, remainingSeconds: status.phaseRemainingSeconds,
            paused: status.paused, finished: status.isFinished))
    }

    /// Ends it all: the player shows Stopped and gives up its name, the notification is
    /// withdrawn, the inhibitor released, the music paused (when `--music` started it); idempotent.
    public func stop() {
        let first: Bool = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        if let observer { control.removeObserver(observer) }
        thread.sync {
            if let status = self.control.status { self.update(status) }
            self.ended = true
            if self.options.musicURI != nil && self.options.pauseMusicAtEnd { self.music?.pause() }
            self.music?.stop()
            self.notifier?.stop()
            self.haptics?.stop()
            self.mpris?.stop()
            self.inhibitor?.release()
            self.sessionBus?.close()
            self.systemBus?.close()
        }
        thread.stop()
    }

    deinit { stop() }
}
