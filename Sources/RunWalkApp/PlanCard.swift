import CAdwaita
import RunWalkAppModel
import RunWalkCore

/// The start page's first card while a plan is followed: today's plan day ("Week 3 · Day 2 of
/// Couch to 5K", due today, next or overdue), its workout, and one button that starts it.
@MainActor
final class PlanCard {
    let root = UI.box(true, spacing: 6, classes: ["card", "plan-card"])
    private let title = UI.label("", classes: ["plan-day-title"], name: "Plan day", wrap: true, xalign: 0)
    private let when = UI.label("", classes: ["plan-day-when"], name: "Plan day due", wrap: true, xalign: 0)
    private let detail = UI.label("", classes: ["caption"], name: "Plan day workout", wrap: true, xalign: 0)
    private let note = UI.label("", classes: ["caption"], name: "Plan day last try", wrap: true, xalign: 0)
    private let problem = UI.label("", classes: ["spec-error"], name: "Plan problem", wrap: true, xalign: 0)
    private let start: Widget
    /// The plan day to start, read again from the store at the tap (the CLI may have run it since).
    var onStart: (PlanDay) -> Void = { _ in }

    init() {
        PlanStyle.install()
        start = UI.button("Start today's run", name: "Start plan day", classes: ["suggested-action", "pill", "big-button"]) {}
        Signal.connect(start, "clicked") { [weak self] in self?.startTapped() }
        gtk_widget_set_margin_top(start, 6)
        UI.append(root, title, when, detail, note, problem, start)
        reload()
    }

    /// Reads the plan followed again; the card hides when there is none.
    func reload() {
        let progress: PlanProgress?
        let today: CalendarDay
        do {
            today = try AppPlans.today()
            progress = try AppPlans.following()
        } catch {
            show(problem: error.description)
            return
        }
        guard let progress else {
            gtk_widget_set_visible(root, 0)
            return
        }
        let card = PlanDayCard(progress: progress, today: today)
        gtk_widget_set_visible(root, 1)
        UI.set(title, card.title)
        UI.set(when, card.when)
        UI.set(detail, card.detail)
        UI.set(note, card.shortNote ?? "")
        gtk_widget_set_visible(note, card.shortNote == nil ? 0 : 1)
        UI.set(problem, "")
        gtk_widget_set_visible(problem, 0)
        gtk_widget_set_visible(start, card.day == nil ? 0 : 1)
        gtk_button_set_label(cast(start), card.startLabel)
        // A new label renames the button for screen readers: the name stays what it does.
        rw_accessible_label(start, "Start plan day")
        rw_accessible_description(start, card.spoken)
        rw_accessible_description(root, card.spoken)
    }

    private func show(problem text: String) {
        gtk_widget_set_visible(root, 1)
        UI.set(title, "Training plan")
        for label in [when, detail, note] { UI.set(label, ""); gtk_widget_set_visible(label, 0) }
        UI.set(problem, text)
        gtk_widget_set_visible(problem, 1)
        gtk_widget_set_visible(start, 0)
    }

    private func startTapped() {
        do { onStart(try AppPlans.nextDay()) } catch {
            reload()
            show(problem: error.description)
        }
    }
}

/// The plan card's and plans page's look (a provider of their own beside AppStyle's).
@MainActor
enum PlanStyle {
    private static var installed = false
    static let css = """
        .plan-card { padding: 16px; }
        .plan-day-title { font-size: 22px; font-weight: 800; }
        .plan-day-when { font-size: 17px; font-weight: bold; color: @accent_color; }
        .plan-weeks-glyphs { font-size: 20px; font-feature-settings: "tnum"; letter-spacing: 2px; }
        .plan-current-week { font-weight: bold; }
        .weekday-toggle { min-width: 36px; padding-left: 2px; padding-right: 2px; }
        .weekday-toggle:checked { background-color: @accent_bg_color; color: @accent_fg_color; }
        """

    static func install() {
        guard !installed, let provider = gtk_css_provider_new(), let display = gdk_display_get_default() else { return }
        installed = true
        gtk_css_provider_load_from_data(provider, css, -1)
        gtk_style_context_add_provider_for_display(display, OpaquePointer(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    }
}
