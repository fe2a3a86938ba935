import CAdwaita
import Foundation
import RunWalkAppModel
import RunWalkCore
import RunWalkHost
import RunWalkRuntime

/// The application: one window with the start, live, finished and history pages in a stack
/// under a header bar; it starts sessions, keeps the device awake while one runs and asks
/// before a running session's window closes.
@MainActor
final class AppController {
    static let applicationID = "org.runwalk.RunWalk"

    private let options: AppOptions
    private let initialWorkout: SessionRequest.WorkoutChoice?
    private let app: UnsafeMutablePointer<AdwApplication>
    private var window: Widget?
    private lazy var stack: Widget = gtk_stack_new()
    private lazy var toasts: Widget = adw_toast_overlay_new()
    private lazy var windowTitle: Widget = adw_window_title_new("RunWalk", "")
    private var backButton: Widget?
    /// The pages a runner moves between (start, plans, history, …); live and finished sit beside it.
    private lazy var navigation = AppNavigation()
    private lazy var titleStack: Widget = gtk_stack_new()
    private lazy var plansPage = PlansPage()
    /// The page to open on (`--page`).
    var initialPage: AppPage?
    private var lastToast: OpaquePointer?
    // Widgets exist only after GTK is initialised (in "activate"): hence lazy.
    private var startPage: StartPage?
    private lazy var livePage = LivePage()
    private lazy var finishedPage = FinishedPage()
    private lazy var historyPage = HistoryPage()
    private lazy var workoutsPage = WorkoutsPage()
    private lazy var settingsPage = SettingsPage()
    private lazy var sessionPage = SessionPage()
    private var session: LiveSession?
    private var inhibitCookie: UInt32 = 0
    private var closeWhenEnded = false
    /// Where "back" goes from the finished page: the history when a past session was opened.
    private var finishedFromHistory = false

    init(options: AppOptions, initialWorkout: SessionRequest.WorkoutChoice?) {
        self.options = options
        self.initialWorkout = initialWorkout
        // Non-unique: a second start (tests, a second window) is its own process, not a D-Bus activation.
        app = adw_application_new(Self.applicationID, G_APPLICATION_NON_UNIQUE)
    }

    /// Runs the GLib main loop until the window closes; returns the exit status.
    func run() -> Int32 {
        MainLoop.drainDispatchMainQueue()
        Signal.connect(app, "activate") { [weak self] in self?.activate() }
        for signal in [SIGINT, SIGTERM] { installStopSignal(signal) }
        // GTK's own options are not offered: the app's options were read already.
        let status = g_application_run(UnsafeMutableRawPointer(app).assumingMemoryBound(to: GApplication.self), 0, nil)
        g_object_unref(app)
        return status
    }

    private var gtkApplication: UnsafeMutablePointer<GtkApplication> {
        UnsafeMutableRawPointer(app).assumingMemoryBound(to: GtkApplication.self)
    }

    private func activate() {
        if let window { gtk_window_present(cast(window)); return }
        AppStyle.install()
        applyColorScheme()
        let window: Widget = adw_application_window_new(gtkApplication)
        self.window = window
        gtk_window_set_title(cast(window), "RunWalk")
        let size = options.windowSize ?? .init(width: 420, height: 800)
        gtk_window_set_default_size(cast(window), Int32(size.width), Int32(size.height))

        let header: Widget = adw_header_bar_new()
        // The page switcher as the title between pages; the page's title on the live and finished pages.
        gtk_stack_add_named(cast(titleStack), navigation.title, "navigation")
        gtk_stack_add_named(cast(titleStack), windowTitle, "page")
        gtk_stack_set_hhomogeneous(cast(titleStack), 0)
        adw_header_bar_set_title_widget(cast(header), titleStack)
        let back = UI.iconButton("go-previous-symbolic", name: "Back") { [weak self] in self?.back() }
        adw_header_bar_pack_start(cast(header), back)
        adw_header_bar_set_centering_policy(cast(header), ADW_CENTERING_POLICY_LOOSE)
        backButton = back
        workoutsPage.onToast = { [weak self] in self?.toast($0) }
        settingsPage.onToast = { [weak self] in self?.toast($0) }

        let start = StartPage(gps: options.gps, voice: options.voice)
        start.onStart = { [weak self] workout, gps, voice in self?.startSession(.workout(workout), gps: gps, voice: voice) }
        start.onStartPlanDay = { [weak self] day, gps, voice in self?.startPlanDay(day, gps: gps, voice: voice) }
        startPage = start
        plansPage.onMessage = { [weak self] text in self?.toast(text) }
        plansPage.onChange = { [weak self] in self?.startPage?.reload() }
        navigation.onWide { [weak self] wide in self?.plansPage.setWide(wide) }
        livePage.onCommand = { [weak self] command in self?.session?.control.send(command) }
        livePage.onStop = { [weak self] in self?.session?.control.send(.stop) }
        finishedPage.onDone = { [weak self] in self?.back() }
        finishedPage.onReport = { [weak self] id in self?.openReport(id) }
        finishedPage.onExport = { [weak self] id, format in self?.export(id, format) }
        historyPage.onOpen = { [weak self] id in self?.openSession(id) }
        sessionPage.onToast = { [weak self] text in self?.toast(text) }
        sessionPage.onDeleted = { [weak self] in self?.showHistory() }

        gtk_stack_set_transition_type(cast(stack), GTK_STACK_TRANSITION_TYPE_CROSSFADE)
        // Each page sizes the window alone: the start page's width must not widen the live page.
        gtk_stack_set_hhomogeneous(cast(stack), 0)
        gtk_stack_set_vhomogeneous(cast(stack), 0)
        // The pages, one line each (the order is the switcher's).
        navigation.register(.start, "Run", icon: "media-playback-start-symbolic", start.root) { [weak self] in self?.startPage?.reload() }
        navigation.register(.plans, "Plans", icon: "x-office-calendar-symbolic", plansPage.root) { [weak self] in self?.plansPage.reload() }
        navigation.register(.history, "History", icon: "document-open-recent-symbolic", historyPage.root) { [weak self] in self?.historyPage.reload() }
        navigation.register(.workouts, "Workouts", icon: "view-list-symbolic", workoutsPage.root) { [weak self] in self?.workoutsPage.reload() }
        navigation.register(.settings, "Settings", icon: "emblem-system-symbolic", settingsPage.root) { [weak self] in self?.settingsPage.reload() }
        gtk_stack_add_named(cast(stack), navigation.root, "navigation")
        gtk_stack_add_named(cast(stack), livePage.root, "live")
        gtk_stack_add_named(cast(stack), finishedPage.root, "finished")
        gtk_stack_add_named(cast(stack), sessionPage.root, "session")
        gtk_widget_set_vexpand(stack, 1)
        adw_toast_overlay_set_child(cast(toasts), stack)
        adw_application_window_set_content(cast(window), UI.box(true, spacing: 0, [header, toasts]))
        Signal.connectBool(window, "close-request") { [weak self] in self?.closeRequested() ?? false }
        navigation.follow(window: window)
        show(initialPage?.rawValue ?? "start")
        gtk_window_present(cast(window))
        // A session a crash left open is closed (and said) before another starts.
        for line in SessionService.recoverAbandoned().appLines { toast(line, seconds: 0) }
        if let initialWorkout {
            if case .planDay(let day) = initialWorkout {
                startPlanDay(day, gps: options.gps, voice: options.voice)
            } else {
                startSession(initialWorkout, gps: options.gps, voice: options.voice)
            }
        }
    }

    /// Forces light or dark when asked; follows the dark style with a `dark` class the tints read.
    private func applyColorScheme() {
        guard let manager = adw_style_manager_get_default() else { return }
        switch options.colorScheme {
        case .system: break
        case .light: adw_style_manager_set_color_scheme(manager, ADW_COLOR_SCHEME_FORCE_LIGHT)
        case .dark: adw_style_manager_set_color_scheme(manager, ADW_COLOR_SCHEME_FORCE_DARK)
        }
        Signal.connectPointer(UnsafeMutableRawPointer(manager), "notify::dark") { [weak self] _ in self?.followDarkStyle() }
    }

    private func followDarkStyle() {
        guard let window, let manager = adw_style_manager_get_default() else { return }
        if adw_style_manager_get_dark(manager) != 0 { gtk_widget_add_css_class(window, "dark") } else { gtk_widget_remove_css_class(window, "dark") }
    }

    /// Shows a page: one of the navigation's (start, plans, history, …) or the live or finished page.
    private func show(_ page: String) {
        followDarkStyle()
        if let navigationPage = AppPage(rawValue: page) {
            gtk_stack_set_visible_child_name(cast(stack), "navigation")
            gtk_stack_set_visible_child_name(cast(titleStack), "navigation")
            navigation.show(navigationPage)
        } else {
            gtk_stack_set_visible_child_name(cast(stack), page)
            gtk_stack_set_visible_child_name(cast(titleStack), "page")
        }
        let titles = ["live": "Workout", "finished": "Summary", "session": "Session"]
        adw_window_title_set_title(cast(windowTitle), titles[page] ?? "RunWalk")
        if let backButton { gtk_widget_set_visible(backButton, ["finished", "session"].contains(page) ? 1 : 0) }
    }

    private func back() {
        if visiblePage == "session" { return showHistory() }
        if finishedFromHistory, visiblePage == "finished" {
            finishedFromHistory = false
            showHistory()
            return
        }
        startPage?.resumeProbe()
        show("start")
    }

    private var visiblePage: String {
        let outer = gtk_stack_get_visible_child_name(cast(stack)).map { String(cString: $0) } ?? ""
        return outer == "navigation" ? navigation.visible : outer
    }

    /// A toast for `seconds` (0: until dismissed).
    private func toast(_ text: String, seconds: UInt32 = 6) {
        AppLog.warning("runwalk-app: \(text)")
        guard let toast = adw_toast_new(text.markupEscaped) else { return }
        // Wrapped, not cut off: at 360 px a one-line title shows only its first 28 characters.
        let title = UI.label(text, wrap: true)
        gtk_label_set_max_width_chars(cast(title), 30)
        gtk_widget_set_margin_top(title, 8)
        gtk_widget_set_margin_bottom(title, 8)
        adw_toast_set_custom_title(toast, title)
        adw_toast_set_timeout(toast, seconds)
        // The newest message replaces the one showing (Skip then Stop must not show "Skipped" after).
        if let lastToast {
            adw_toast_dismiss(lastToast)
            g_object_unref(UnsafeMutableRawPointer(lastToast))
        }
        g_object_ref(UnsafeMutableRawPointer(toast))
        lastToast = toast
        adw_toast_overlay_add_toast(cast(toasts), toast)
    }

    // MARK: the session

    /// The one way a plan day starts (the start page's card, `--workout next`): the session
    /// service runs the day's workout, says the day first and marks it done or cut short at the end.
    private func startPlanDay(_ day: PlanDay, gps: String, voice: Bool) {
        guard session == nil else { return }
        startSession(.planDay(day), gps: gps, voice: voice)
        if session != nil { adw_window_title_set_subtitle(cast(windowTitle), day.title) }
    }

    private func startSession(_ workout: SessionRequest.WorkoutChoice, gps: String, voice: Bool) {
        guard session == nil else { return }
        startPage?.stopProbe()
        do {
            session = try LiveSession.start(workout: workout, gps: gps, speed: options.speed, voice: voice,
                                            onStatus: { [weak self] status in self?.livePage.update(status) },
                                            onEnd: { [weak self] outcome in self?.sessionEnded(outcome) })
        } catch {
            toast("\(error)")
            return
        }
        livePage.reset()
        show("live")
        // Screen and suspend stay on while a session runs (the runner glances mid-stride).
        if let window {
            inhibitCookie = gtk_application_inhibit(gtkApplication, cast(window),
                                                    GtkApplicationInhibitFlags(rawValue: GTK_APPLICATION_INHIBIT_IDLE.rawValue | GTK_APPLICATION_INHIBIT_SUSPEND.rawValue),
                                                    "A workout is running")
        }
    }

    private func sessionEnded(_ outcome: LiveSession.Outcome) {
        session = nil
        if inhibitCookie != 0 {
            gtk_application_uninhibit(gtkApplication, inhibitCookie)
            inhibitCookie = 0
        }
        adw_window_title_set_subtitle(cast(windowTitle), "")
        if closeWhenEnded, let window {
            gtk_window_destroy(cast(window))
            return
        }
        // One toast for the plan day's news (a new toast replaces the one showing).
        if !outcome.notes.isEmpty { toast(outcome.notes.joined(separator: "\n")) }
        if let summary = outcome.summary {
            finishedFromHistory = false
            finishedPage.show(summary, sessionID: outcome.sessionID, message: outcome.message)
            show("finished")
        } else {
            if let message = outcome.message { toast(message) }
            startPage?.resumeProbe()
            show("start")
        }
    }

    /// Closing while a session runs asks first (a stray tap must not end a run).
    private func closeRequested() -> Bool {
        guard let session, !session.control.hasEnded, let window else { return false }
        let dialog: Widget = adw_message_dialog_new(cast(window), "Stop the workout?",
                                                    "Closing RunWalk stops the workout and saves what was done.")
        adw_message_dialog_add_response(cast(dialog), "keep", "Keep running")
        adw_message_dialog_add_response(cast(dialog), "stop", "Stop and close")
        adw_message_dialog_set_response_appearance(cast(dialog), "stop", ADW_RESPONSE_DESTRUCTIVE)
        adw_message_dialog_set_default_response(cast(dialog), "keep")
        adw_message_dialog_set_close_response(cast(dialog), "keep")
        Signal.connectPointer(dialog, "response") { [weak self] response in
            guard let self, let response, String(cString: response.assumingMemoryBound(to: CChar.self)) == "stop" else { return }
            self.closeWhenEnded = true
            self.session?.control.send(.stop)
        }
        gtk_window_present(cast(dialog))
        return true
    }

    /// SIGINT and SIGTERM stop a running session (it is saved) and then quit.
    private func installStopSignal(_ signal: Int32) {
        let data = Unmanaged.passRetained(self).toOpaque()
        _ = g_unix_signal_add_full(G_PRIORITY_DEFAULT, signal, { data in
            guard let data else { return 0 }
            let controller = Unmanaged<AppController>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { controller.stopAndQuit() }
            return 1
        }, data, nil)
    }

    private func stopAndQuit() {
        if let session, !session.control.hasEnded {
            closeWhenEnded = true
            session.control.send(.stop)
        } else {
            g_application_quit(UnsafeMutableRawPointer(app).assumingMemoryBound(to: GApplication.self))
        }
    }

    // MARK: history, report, export

    private func showHistory() {
        show("history")
    }

    private func openSession(_ id: Int64) {
        sessionPage.show(id)
        show("session")
    }

    private func openReport(_ id: Int64) {
        do {
            let path = try AppData.writeReport(id)
            var error: UnsafeMutablePointer<GError>?
            let uri = g_filename_to_uri(path, nil, nil)
            defer { g_free(uri) }
            if g_app_info_launch_default_for_uri(uri, nil, &error) == 0 {
                let reason = error.map { String(cString: $0.pointee.message) } ?? "no browser"
                g_clear_error(&error)
                toast("Report written to \(path) (could not open it: \(reason))")
            }
        } catch { toast("\(error)") }
    }

    private func export(_ id: Int64, _ format: AppData.ExportFormat) {
        guard let window else { return }
        guard let chooser = gtk_file_chooser_native_new("Export \(format.rawValue.uppercased())", cast(window),
                                                        GTK_FILE_CHOOSER_ACTION_SAVE, "_Export", "_Cancel") else { return }
        let pointer = UnsafeMutableRawPointer(chooser)
        gtk_file_chooser_set_current_name(OpaquePointer(pointer), "runwalk-\(id).\(format.rawValue)")
        Signal.connectInt(pointer, "response") { [weak self] response in
            defer { g_object_unref(pointer) }
            guard response == GTK_RESPONSE_ACCEPT.rawValue,
                  let file = gtk_file_chooser_get_file(OpaquePointer(pointer)), let cPath = g_file_get_path(file) else { return }
            let path = String(cString: cPath)
            g_free(cPath)
            g_object_unref(UnsafeMutableRawPointer(file))
            do {
                try AppData.export(id, format: format, to: path)
                self?.toast("Exported to \(path)")
            } catch { self?.toast("\(error)") }
        }
        gtk_native_dialog_show(pointer.assumingMemoryBound(to: GtkNativeDialog.self))
    }
}
