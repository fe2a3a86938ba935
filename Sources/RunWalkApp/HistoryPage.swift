import CAdwaita
import Foundation
import RunWalkAppModel
import RunWalkCore
import RunWalkIO
import RunWalkStore

/// The history page: a month calendar (previous/next) marking run days and plan days due, the
/// week's and month's totals, streaks and records, and the month's sessions; opening one shows
/// its session page. Two columns from 900 px wide. A store it cannot read is a banner naming
/// the file and what is wrong, not an empty page.
@MainActor
final class HistoryPage {
    let root: Widget
    private let content = UI.box(true, spacing: 12)
    private let columns = UI.box(false, spacing: 24)
    /// Where a problem is told, across both columns.
    private let problem = UI.box(true, spacing: 0)
    private let left = UI.box(true, spacing: 12)
    private let right = UI.box(true, spacing: 12)
    private var contents: HistoryStore.Contents?
    private var month: CalendarMonth?
    private var watcher: WidthWatcher?
    /// A session was opened.
    var onOpen: (Int64) -> Void = { _ in }

    init() {
        HistoryStyle.install()
        UI.margins(content, 12)
        for column in [left, right] {
            gtk_widget_set_hexpand(column, 1)
            gtk_box_append(cast(columns), column)
        }
        UI.append(content, problem, columns)
        root = UI.scrolledClamp(content, maximumWidth: 1200)
        watcher = WidthWatcher(root) { [weak self] width in self?.layout(width) }
        layout(420)
    }

    /// Reads the store again; the calendar opens on the newest session's month (or today's).
    func reload() {
        let today = Self.today()
        do {
            let contents = try HistoryStore.contents(today: today)
            self.contents = contents
            UI.clear(problem)
            if month == nil { month = contents.sessions.first.map { CalendarMonth(containing: CalendarDay($0.date)) } ?? CalendarMonth(containing: today) }
            render()
        } catch {
            contents = nil
            UI.clear(left)
            UI.clear(right)
            UI.clear(problem)
            UI.append(problem, Self.banner("\(error)"))
        }
    }

    /// The problem banner: the file and what is wrong, in words a runner can act on.
    static func banner(_ text: String) -> Widget {
        let icon: Widget = gtk_image_new_from_icon_name("dialog-warning-symbolic")
        gtk_widget_set_valign(icon, GTK_ALIGN_START)
        rw_accessible_label(icon, "Problem")
        let label = UI.label(text, name: "Store problem", wrap: true, xalign: 0)
        gtk_label_set_selectable(cast(label), 1)
        gtk_label_set_wrap_mode(cast(label), PANGO_WRAP_WORD_CHAR)
        gtk_widget_set_hexpand(label, 1)
        let title = UI.label("Your history cannot be read", classes: ["heading"], xalign: 0)
        return UI.box(false, spacing: 12, classes: ["store-banner"], [icon, UI.box(true, spacing: 4, [title, label])])
    }

    static func today() -> CalendarDay {
        if let text = ProcessInfo.processInfo.environment["RUNWALK_TODAY"], let day = CalendarDay(parsing: text) { return day }
        return CalendarDay(UTCTime(milliseconds: Int64(Date().timeIntervalSince1970 * 1000)))
    }

    private func layout(_ width: Int32) {
        gtk_orientable_set_orientation(OpaquePointer(UnsafeMutableRawPointer(columns)), width >= 900 ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL)
        // Equal halves side by side; stacked, each column as tall as it is.
        gtk_box_set_homogeneous(cast(columns), width >= 900 ? 1 : 0)
    }

    private func step(_ to: CalendarMonth) {
        month = to
        render()
    }

    private func render() {
        UI.clear(left)
        UI.clear(right)
        guard let contents, let month else { return }
        let today = Self.today()
        // The units `runwalk history` uses (settings.conf); a settings file it cannot read is the settings page's to report.
        let units = (try? SettingsFile().load())?.units ?? .metric
        let model = HistoryCalendarModel(calendar: contents.calendar, month: month, today: today, records: contents.records, units: units)

        // Month title between previous and next.
        let previous = UI.iconButton("go-previous-symbolic", name: "Previous month") { [weak self] in self?.step(month.previous) }
        let next = UI.iconButton("go-next-symbolic", name: "Next month") { [weak self] in self?.step(month.next) }
        gtk_widget_set_sensitive(previous, model.hasPrevious ? 1 : 0)
        gtk_widget_set_sensitive(next, model.hasNext ? 1 : 0)
        let title = UI.label(model.title, classes: ["month-title"], name: "Month shown")
        gtk_widget_set_hexpand(title, 1)
        UI.append(left, UI.box(false, spacing: 6, [previous, title, next]))
        UI.append(left, CalendarGrid.make(model) { [weak self] day in self?.openDay(day) }, CalendarGrid.key())
        let totals = UI.label(model.monthTotals, classes: ["heading"], name: "Month totals", wrap: true)
        UI.append(left, totals)

        // The month's sessions, newest first (the rows `runwalk history` prints).
        let inMonth = contents.sessions.filter { month.contains(CalendarDay($0.date)) }
        let listed = HistoryPageModel(sessions: inMonth.map {
            .init(id: $0.id, date: $0.date, workout: $0.workout, distanceMetres: $0.distanceMetres,
                  durationSeconds: $0.durationSeconds, state: $0.state)
        }, units: units)
        UI.append(left, UI.label("Sessions in \(month.title)", classes: ["heading"], xalign: 0))
        if listed.rows.isEmpty {
            UI.append(left, UI.label(contents.sessions.isEmpty ? "No sessions yet. Finished workouts appear here."
                                                               : "No sessions this month.", classes: ["caption"], xalign: 0))
        } else {
            let list = UI.boxedList(name: "Sessions")
            for row in listed.rows {
                let id = row.id
                let name = contents.labels[id]?.name
                let item = UI.actionRow(title: row.title, subtitle: name.map { "\($0) · \(row.subtitle)" } ?? row.subtitle) { [weak self] in self?.onOpen(id) }
                // A button as well as the row: screen readers (and AT-SPI) can press a button.
                let open = UI.iconButton("go-next-symbolic", name: "Open session \(id)") { [weak self] in self?.onOpen(id) }
                gtk_widget_add_css_class(open, "flat")
                gtk_widget_set_valign(open, GTK_ALIGN_CENTER)
                adw_action_row_add_suffix(cast(item), open)
                gtk_list_box_append(cast(list), item)
            }
            UI.append(left, list)
        }

        let streaks = UI.boxedList(name: "Streaks")
        gtk_list_box_append(cast(streaks), UI.infoRow(title: model.thisWeek, subtitle: model.weekStreak))
        gtk_list_box_append(cast(streaks), UI.infoRow(title: "Days in a row", subtitle: model.dayStreak))
        UI.append(right, UI.label("This week and streaks", classes: ["heading"], xalign: 0), streaks)

        if !model.records.isEmpty {
            let records = UI.boxedList(name: "Records")
            for record in model.records {
                let row = UI.infoRow(title: "\(record.title): \(record.value)", subtitle: record.detail)
                if let id = record.sessionID {
                    let open = UI.iconButton("go-next-symbolic", name: "Open the session of \(record.title.lowercased())") { [weak self] in self?.onOpen(id) }
                    gtk_widget_add_css_class(open, "flat")
                    gtk_widget_set_valign(open, GTK_ALIGN_CENTER)
                    adw_action_row_add_suffix(cast(row), open)
                }
                gtk_list_box_append(cast(records), row)
            }
            UI.append(right, UI.label("Records", classes: ["heading"], xalign: 0), records)
        }

        let weeks = UI.boxedList(name: "Weekly totals")
        for week in model.weeks where !week.title.isEmpty {
            gtk_list_box_append(cast(weeks), UI.infoRow(title: week.title, subtitle: week.totals))
        }
        UI.append(right, UI.label("Weeks", classes: ["heading"], xalign: 0), weeks)
    }

    /// A day of the calendar: its session (the newest, when several) opens.
    private func openDay(_ day: CalendarDay) {
        guard let session = contents?.sessions.first(where: { CalendarDay($0.date) == day && !$0.state.isRecording }) else { return }
        onOpen(session.id)
    }
}
