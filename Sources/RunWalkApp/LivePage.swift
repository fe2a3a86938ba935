import CAdwaita
import RunWalkAppModel
import RunWalkRuntime

/// The live page: readable at arm's length at 360×720, tinted by phase; Pause/Resume and Skip
/// are big, Stop needs a press-and-hold so a pocket cannot end a run.
@MainActor
final class LivePage {
    let root: Widget
    private let title = UI.label("Waiting for GPS", classes: ["phase-title"], name: "Phase")
    private let subtitle = UI.label("", classes: ["phase-subtitle"], name: "Phase number")
    private let remaining = UI.label("--:--", classes: ["time-left"], name: "Time left")
    private let remainingCaption = UI.label("time left in the phase", classes: ["caption"])
    private let phaseBar = UI.progress(name: "Phase progress", classes: ["thick"])
    private let workoutLine = UI.label("", classes: ["caption"], name: "Workout time")
    private let workoutBar = UI.progress(name: "Workout progress")
    private let next = UI.label("", classes: ["next-phase"], name: "Next phase")
    private let distance = UI.label("0.00 km", classes: ["stat-big"], name: "Distance")
    private let pace = UI.label("–", classes: ["stat-value"], name: "Pace")
    private let averagePace = UI.label("–", classes: ["stat-value"], name: "Average pace")
    private let gps = UI.label("No GPS fix yet", classes: ["caption"], name: "GPS")
    /// The phase's band and a gauge of where the runner is in it (issue 33); hidden without one.
    private let targetLabel = UI.label("", classes: ["caption"], name: "Target")
    private let targetGauge = UI.progress(name: "Target gauge")
    private let hint = UI.label("", classes: ["caption"], name: "Hint", wrap: true)
    private let waitingReason = UI.label("", classes: ["caption"], name: "Why waiting", wrap: true)
    private var startNowButton: Widget?
    private var pauseButton: Widget?
    private var skipButton: Widget?
    private var model: LivePageModel?
    /// What the buttons do (the controller sends the commands to the session).
    var onCommand: (SessionCommand) -> Void = { _ in }
    /// The runner held Stop.
    var onStop: () -> Void = {}

    init() {
        root = UI.box(true, spacing: 6, classes: ["live-page", "phase-idle"])
        gtk_widget_set_vexpand(root, 1)
        // Two columns that stack on a phone held upright and sit side by side when it is turned
        // (wide and short): the clock and the phase on the left, the numbers and buttons on the right.
        let content = UI.box(true, spacing: 4)
        let side = UI.box(true, spacing: 4)
        let columns = UI.box(true, spacing: 4, [content, side])
        UI.margins(columns, 4)
        // While waiting for a fix: why, and a way to start without one.
        let startNow = UI.button("Start now", name: "Start now", classes: ["suggested-action", "pill"]) { [weak self] in
            self?.onCommand(.start)
        }
        startNowButton = startNow
        UI.append(content, title, subtitle, waitingReason, startNow, remaining, remainingCaption, phaseBar, workoutLine, workoutBar, next)
        gtk_widget_set_margin_top(phaseBar, 8)
        gtk_widget_set_margin_top(next, 8)
        // Distance on a line of its own, the two paces side by side: fits 360 px wide.
        let distanceBox = UI.box(true, spacing: 0, [distance, UI.label("distance", classes: ["caption"])])
        gtk_widget_set_margin_top(distanceBox, 8)
        let stats: Widget = gtk_grid_new()
        gtk_grid_set_column_homogeneous(cast(stats), 1)
        gtk_grid_set_column_spacing(cast(stats), 12)
        func cell(_ value: Widget, _ caption: String, _ column: Int32) {
            let box = UI.box(true, spacing: 0, [value, UI.label(caption, classes: ["caption"])])
            gtk_grid_attach(cast(stats), box, column, 0, 1, 1)
        }
        cell(pace, "pace", 0)
        cell(averagePace, "average pace", 1)
        UI.append(side, distanceBox)
        UI.append(side, stats, targetLabel, targetGauge, gps)
        gtk_widget_set_visible(targetLabel, 0)
        gtk_widget_set_visible(targetGauge, 0)

        let pause = UI.button("Pause", name: "Pause", classes: ["big-button", "pill"]) { [weak self] in
            guard let self, let model = self.model else { return }
            self.onCommand(model.paused ? .resume : .pause)
        }
        let skip = UI.button("Skip", name: "Skip", classes: ["big-button", "pill"]) { [weak self] in self?.onCommand(.skip) }
        gtk_widget_set_hexpand(pause, 1)
        gtk_widget_set_hexpand(skip, 1)
        pauseButton = pause
        skipButton = skip
        let buttons = UI.box(false, spacing: 12, [pause, skip])
        gtk_widget_set_margin_top(buttons, 12)
        gtk_widget_set_valign(buttons, GTK_ALIGN_END)
        gtk_widget_set_vexpand(buttons, 1)
        UI.append(side, buttons, holdToStopButton(), hint)
        let clamp: Widget = adw_clamp_new()
        adw_clamp_set_maximum_size(cast(clamp), Self.uprightWidth)
        adw_clamp_set_child(cast(clamp), columns)
        let scrolled: Widget = gtk_scrolled_window_new()
        gtk_scrolled_window_set_policy(cast(scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(cast(scrolled), clamp)
        gtk_widget_set_vexpand(scrolled, 1)
        UI.append(root, scrolled)
        // The viewport's size, as the window is resized or the phone turned.
        for adjustment in [gtk_scrolled_window_get_vadjustment(cast(scrolled)), gtk_scrolled_window_get_hadjustment(cast(scrolled))] {
            guard let adjustment else { continue }
            // Not in the middle of the size allocation that changed it: a layout changed there is not redone.
            _ = Signal.connect(UnsafeMutableRawPointer(adjustment), "changed") { [weak self] in
                MainLoop.post { self?.arrange(scrolled: scrolled, columns: columns, clamp: clamp) }
            }
        }
    }

    /// The widest the page grows upright, and side by side.
    static let uprightWidth: Int32 = 640
    static let sideBySideWidth: Int32 = 1100
    /// Whether the columns sit side by side now.
    private(set) var sideBySide = false

    private func arrange(scrolled: Widget, columns: Widget, clamp: Widget) {
        let width = gtk_widget_get_width(scrolled)
        let height = gtk_widget_get_height(scrolled)
        guard width > 0, height > 0 else { return }
        let wanted = LiveLayout.isSideBySide(width: Int(width), height: Int(height))
        guard wanted != sideBySide else { return }
        sideBySide = wanted
        gtk_orientable_set_orientation(OpaquePointer(columns), wanted ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL)
        gtk_box_set_homogeneous(cast(columns), wanted ? 1 : 0)
        gtk_box_set_spacing(cast(columns), wanted ? 24 : 4)
        adw_clamp_set_maximum_size(cast(clamp), wanted ? Self.sideBySideWidth : Self.uprightWidth)
        // Smaller type side by side: both columns fit a phone's 360 px height without scrolling.
        if wanted { gtk_widget_add_css_class(root, "side-by-side") } else { gtk_widget_remove_css_class(root, "side-by-side") }
    }

    /// A Stop button that acts only when held (about 1 s); a tap says so instead.
    private func holdToStopButton() -> Widget {
        let stop = UI.button("Hold to stop", name: "Stop", classes: ["stop-button", "destructive-action", "pill"]) { [weak self] in
            self?.showHint("Hold Stop for a second to end the workout")
        }
        rw_accessible_description(stop, "Press and hold to end the workout")
        // The gesture sits on a wrapper in the capture phase, so it sees the press before the
        // button does and, once it fires, claims the press (no click follows).
        let wrapper = UI.box(false, spacing: 0, [stop])
        gtk_widget_set_hexpand(stop, 1)
        gtk_widget_set_margin_top(wrapper, 12)
        guard let gesture = gtk_gesture_long_press_new() else { return wrapper }
        let pointer = UnsafeMutableRawPointer(gesture)
        // Twice the long-press time (GTK allows at most 2): about a second.
        gtk_gesture_long_press_set_delay_factor(OpaquePointer(pointer), 2)
        gtk_event_controller_set_propagation_phase(OpaquePointer(pointer), GTK_PHASE_CAPTURE)
        Signal.connectPoint(pointer, "pressed") { [weak self] in
            gtk_gesture_set_state(OpaquePointer(pointer), GTK_EVENT_SEQUENCE_CLAIMED)
            self?.showHint("Stopping…")
            self?.onStop()
        }
        gtk_widget_add_controller(wrapper, OpaquePointer(pointer))
        return wrapper
    }

    private func showHint(_ text: String) {
        UI.set(hint, text)
        gtk_widget_set_visible(hint, 1)
    }

    /// Shows `status`.
    func update(_ status: SessionStatus) {
        let model = LivePageModel(status)
        guard model != self.model else { return }
        self.model = model
        UI.tint(root, model.tint, among: PhaseLook.allCSSClasses)
        // A paused clock is dimmed: frozen at a glance, not only in words.
        if model.paused { gtk_widget_add_css_class(root, "paused") } else { gtk_widget_remove_css_class(root, "paused") }
        UI.set(title, model.title)
        UI.set(subtitle, model.subtitle)
        UI.set(remaining, model.remaining)
        UI.set(remainingCaption, model.remainingCaption)
        // "time left in the phase" goes without saying under a phase title; other meanings do not.
        gtk_widget_set_visible(remainingCaption, model.remainingCaption == "time left in the phase" ? 0 : 1)
        gtk_widget_set_visible(hint, gtk_label_get_text(cast(hint)).map { $0.pointee != 0 } ?? false ? 1 : 0)
        gtk_progress_bar_set_fraction(cast(phaseBar), model.phaseProgress)
        gtk_progress_bar_set_fraction(cast(workoutBar), model.workoutProgress)
        UI.set(workoutLine, model.workoutLine)
        UI.set(next, model.next)
        UI.set(distance, model.distance)
        UI.set(pace, model.pace)
        UI.set(averagePace, model.averagePace)
        UI.set(gps, model.heartRate.map { model.gps + " · ♥ " + $0 } ?? model.gps)
        UI.set(targetLabel, model.target ?? "")
        gtk_widget_set_visible(targetLabel, model.target != nil ? 1 : 0)
        gtk_widget_set_visible(targetGauge, model.targetGauge != nil ? 1 : 0)
        gtk_progress_bar_set_fraction(cast(targetGauge), model.targetGauge ?? 0)
        UI.set(waitingReason, model.waitingReason ?? "")
        gtk_widget_set_visible(waitingReason, model.waitingReason == nil ? 0 : 1)
        if let startNowButton { gtk_widget_set_visible(startNowButton, model.canStartNow ? 1 : 0) }
        if let pauseButton {
            gtk_button_set_label(cast(pauseButton), model.pauseLabel)
            rw_accessible_label(pauseButton, model.pauseLabel)
            gtk_widget_set_sensitive(pauseButton, model.controlsActive ? 1 : 0)
        }
        if let skipButton { gtk_widget_set_sensitive(skipButton, model.controlsActive ? 1 : 0) }
    }

    /// Back to the waiting state for a new session.
    func reset() {
        model = nil
        UI.set(hint, "")
        gtk_widget_set_visible(hint, 0)
    }
}
