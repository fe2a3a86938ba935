import CAdwaita
import RunWalkAppModel
import RunWalkCore

/// The plans page: the plan followed (progress, the weeks with done/short/skipped/next days,
/// Skip, Repeat, Stop) and the plans to start (built-in and imported) with the days of the week.
/// One column on a phone, two side by side on a wide window.
@MainActor
final class PlansPage {
    let root: Widget
    private let clamp: Widget
    private let columns = UI.box(true, spacing: 24)
    private let following = UI.box(true, spacing: 8)
    private let starting = UI.box(true, spacing: 8)
    private let plansList = UI.boxedList(name: "Plans")
    private var dayToggles: [(day: Weekday, toggle: Widget)] = []
    private let startButton: Widget
    private let startNote = UI.label("", classes: ["caption"], name: "Start plan note", wrap: true, xalign: 0)
    private let problems = UI.box(true, spacing: 4)
    private var model = PlansPageModel(plans: [], progress: nil, today: CalendarDay(daysSinceEpoch: 0))
    private var selected: String?
    private var wide = false
    /// A line to show the runner (a toast): what an action did, or why it could not.
    var onMessage: (String) -> Void = { _ in }
    /// The plan followed changed (started, skipped, repeated, stopped).
    var onChange: Action = {}

    init() {
        PlanStyle.install()
        UI.margins(columns, 12)
        clamp = adw_clamp_new()
        adw_clamp_set_maximum_size(cast(clamp), 640)
        adw_clamp_set_child(cast(clamp), columns)
        root = gtk_scrolled_window_new()
        gtk_scrolled_window_set_policy(cast(root), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(cast(root), clamp)
        gtk_widget_set_vexpand(root, 1)
        startButton = UI.button("Start plan", name: "Start plan", classes: ["suggested-action", "pill"]) {}
        Signal.connect(startButton, "clicked") { [weak self] in self?.startTapped() }
        UI.append(columns, following, starting)
        gtk_widget_set_hexpand(following, 1)
        gtk_widget_set_hexpand(starting, 1)

        let days = UI.box(false, spacing: 4)
        gtk_box_set_homogeneous(cast(days), 1)
        rw_accessible_label(days, "Days you run")
        let names = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
        for day in Weekday.allCases {
            let toggle: Widget = gtk_toggle_button_new_with_label(day.shortName)
            gtk_widget_add_css_class(toggle, "weekday-toggle")
            rw_accessible_label(toggle, names[day.index])
            gtk_box_append(cast(days), toggle)
            dayToggles.append((day, toggle))
        }
        UI.append(starting, Self.heading("Start a plan"), plansList, problems, Self.heading("Days you run"), days, startButton, startNote)
        gtk_widget_set_halign(startButton, GTK_ALIGN_CENTER)
        gtk_widget_set_margin_top(startButton, 6)
    }

    /// Two columns side by side on a wide window, one above the other on a phone.
    /// Without a plan followed the left column would be one line: then one column, as on a phone.
    func setWide(_ wide: Bool) {
        self.wide = wide
        let two = wide && model.following != nil
        gtk_orientable_set_orientation(OpaquePointer(columns), two ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL)
        gtk_box_set_homogeneous(cast(columns), two ? 1 : 0)
        adw_clamp_set_maximum_size(cast(clamp), two ? 1100 : 640)
    }

    private static func heading(_ text: String) -> Widget {
        let label = UI.label(text, classes: ["heading"], xalign: 0)
        gtk_widget_set_margin_top(label, 6)
        return label
    }

    /// Reads the plans and the plan followed again (the CLI may have changed them).
    func reload() {
        let catalog = AppPlans.catalog()
        var problemLines = catalog.problems
        var progress: PlanProgress?
        var today = CalendarDay(daysSinceEpoch: 0)
        do {
            today = try AppPlans.today()
            progress = try AppPlans.following()
        } catch { problemLines.insert(error.description, at: 0) }
        model = PlansPageModel(plans: catalog.plans, progress: progress, today: today, problems: problemLines)
        fillFollowing()
        fillPlans(active: progress?.plan.name)
        setWide(wide)
        UI.clear(problems)
        for line in model.problems {
            UI.append(problems, UI.label(line, classes: ["spec-error"], name: "Plan problem", wrap: true, xalign: 0))
        }
    }

    private func fillFollowing() {
        UI.clear(following)
        UI.append(following, Self.heading("Plan you follow"))
        guard let plan = model.following else {
            UI.append(following, UI.label("No plan yet. Pick one and the days you run: the start page then offers each day in turn.",
                                          classes: ["caption"], name: "Plan followed", wrap: true, xalign: 0))
            return
        }
        let bar = UI.progress(name: "Plan progress", classes: ["thick"])
        gtk_progress_bar_set_fraction(cast(bar), plan.fraction)
        UI.append(following,
                  UI.label(plan.title, classes: ["plan-day-title"], name: "Plan followed", wrap: true, xalign: 0),
                  UI.label(plan.schedule, classes: ["caption"], name: "Plan schedule", wrap: true, xalign: 0),
                  bar,
                  UI.label(plan.done, name: "Plan done", wrap: true, xalign: 0),
                  UI.label(plan.next, classes: ["plan-day-when"], name: "Plan next", wrap: true, xalign: 0))
        let skip = UI.button("Skip day", name: "Skip plan day") { [weak self] in self?.act(AppPlans.skip) }
        gtk_widget_set_sensitive(skip, plan.canSkip ? 1 : 0)
        let again = UI.button(plan.repeatLabel, name: "Repeat week") { [weak self] in self?.act(AppPlans.repeatWeek) }
        rw_accessible_description(again, plan.repeatLabel)
        let stop = UI.button("Stop plan", name: "Stop plan", classes: ["destructive-action"]) { [weak self] in self?.confirmStop(plan.title) }
        // Stop, rare and undoing, comes last (under the weeks): Skip and Repeat fit a 360 px row.
        let actions = UI.box(false, spacing: 6, [skip, again])
        gtk_box_set_homogeneous(cast(actions), 1)
        gtk_widget_add_css_class(stop, "pill")
        gtk_widget_set_halign(stop, GTK_ALIGN_CENTER)
        gtk_widget_set_margin_top(stop, 6)
        UI.append(following, actions, Self.heading("Weeks"))
        let weeks = UI.boxedList(name: "Weeks")
        for week in plan.weeks {
            let row = UI.infoRow(title: week.title + (week.isCurrent ? " (this week)" : ""), subtitle: week.subtitle)
            rw_accessible_label(row, "\(week.title): \(week.subtitle)")
            let glyphs = UI.label(week.glyphs, classes: ["plan-weeks-glyphs"])
            gtk_widget_set_valign(glyphs, GTK_ALIGN_CENTER)
            adw_action_row_add_suffix(cast(row), glyphs)
            if week.isCurrent { gtk_widget_add_css_class(row, "plan-current-week") }
            gtk_list_box_append(cast(weeks), row)
        }
        UI.append(following, weeks, stop)
    }

    private func fillPlans(active: String?) {
        while let row = gtk_widget_get_first_child(plansList) { gtk_list_box_remove(cast(plansList), row) }
        if selected == nil || !model.plans.contains(where: { $0.name == selected }) { selected = active ?? model.plans.first?.name }
        var group: Widget?
        for plan in model.plans {
            let check: Widget = gtk_check_button_new()
            rw_accessible_label(check, plan.title)
            rw_accessible_description(check, plan.subtitle)
            if let group { gtk_check_button_set_group(cast(check), cast(group)) } else { group = check }
            gtk_check_button_set_active(cast(check), plan.name == selected ? 1 : 0)
            let name = plan.name
            Signal.connect(check, "toggled") { [weak self] in
                guard let self, gtk_check_button_get_active(cast(check)) != 0 else { return }
                self.select(name)
            }
            let row = UI.infoRow(title: plan.title, subtitle: plan.subtitle)
            adw_action_row_add_prefix(cast(row), check)
            adw_action_row_set_activatable_widget(cast(row), check)
            gtk_list_box_append(cast(plansList), row)
        }
        if let selected { select(selected) }
        gtk_widget_set_sensitive(startButton, active == nil && selected != nil ? 1 : 0)
        if let plan = model.following {
            UI.set(startNote, "Stop \(plan.title) first to start another plan.")
        } else {
            UI.set(startNote, "The plan starts today; each day waits for the next day you run.")
        }
    }

    /// A plan picked: its usual days are ticked, and Start names it.
    private func select(_ name: String) {
        selected = name
        guard let plan = model.plans.first(where: { $0.name == name }) else { return }
        for (day, toggle) in dayToggles { gtk_toggle_button_set_active(cast(toggle), plan.defaultDays.contains(day) ? 1 : 0) }
        gtk_button_set_label(cast(startButton), "Start \(plan.title)")
        rw_accessible_label(startButton, "Start plan")
    }

    private func startTapped() {
        guard let name = selected else { return }
        let days = dayToggles.filter { gtk_toggle_button_get_active(cast($0.toggle)) != 0 }.map(\.day)
        do {
            onMessage(try AppPlans.start(name: name, days: days))
            reload()
            onChange()
        } catch {
            // Told beside the button too (it stays when the toast goes): a missing file, no day picked.
            reload()
            UI.set(startNote, error.description)
            onMessage(error.description)
        }
    }

    /// Runs a plan action, says what it did (or why not) and shows the plan again.
    private func act(_ action: () throws(PlanPageProblem) -> String) {
        do { onMessage(try action()) } catch { onMessage(error.description) }
        reload()
        onChange()
    }

    /// Stopping asks first: the days done stay in the history, but the plan starts over from week 1.
    private func confirmStop(_ title: String) {
        guard let window = gtk_widget_get_root(root) else { return }
        let dialog: Widget = adw_message_dialog_new(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWindow.self),
                                                    "Stop following \(title)?",
                                                    "Your runs stay in the history. Starting the plan again begins at week 1.")
        adw_message_dialog_add_response(cast(dialog), "keep", "Keep the plan")
        adw_message_dialog_add_response(cast(dialog), "stop", "Stop the plan")
        adw_message_dialog_set_response_appearance(cast(dialog), "stop", ADW_RESPONSE_DESTRUCTIVE)
        adw_message_dialog_set_default_response(cast(dialog), "keep")
        adw_message_dialog_set_close_response(cast(dialog), "keep")
        Signal.connectPointer(dialog, "response") { [weak self] response in
            guard let self, let response, String(cString: response.assumingMemoryBound(to: CChar.self)) == "stop" else { return }
            self.act(AppPlans.stop)
        }
        gtk_window_present(cast(dialog))
    }
}
