import CAdwaita
import RunWalkAppModel
import RunWalkCore
import RunWalkStore

/// The history page: past sessions (date, distance, time, workout) and weekly totals; opening
/// a session shows its finished page.
@MainActor
final class HistoryPage {
    let root: Widget
    private let content = UI.box(true, spacing: 12)
    /// A session was opened.
    var onOpen: (Int64) -> Void = { _ in }

    init() {
        UI.margins(content, 12)
        root = UI.scrolledClamp(content, maximumWidth: 720)
    }

    /// Reads the store again and lists what it holds.
    func reload() {
        UI.clear(content)
        let sessions: [SessionInfo]
        do { sessions = try AppData.sessions() } catch {
            UI.append(content, UI.label("\(error)", classes: ["spec-error"], name: "Problem", wrap: true))
            return
        }
        let model = HistoryPageModel(sessions: sessions.map {
            .init(id: $0.id, date: $0.date, workout: $0.workout, distanceMetres: $0.distanceMetres,
                  durationSeconds: $0.durationSeconds, state: $0.state)
        }, units: .metric)
        if model.rows.isEmpty {
            UI.append(content, UI.label("No sessions yet. Finished workouts appear here.", classes: ["caption"], wrap: true))
            return
        }
        UI.append(content, UI.label("Weekly totals", classes: ["heading"], xalign: 0))
        let weeks = UI.boxedList(name: "Weekly totals")
        for week in model.weeks.prefix(8) { gtk_list_box_append(cast(weeks), UI.infoRow(title: week.title, subtitle: week.totals)) }
        UI.append(content, weeks, UI.label("Sessions", classes: ["heading"], xalign: 0))
        let list = UI.boxedList(name: "Sessions")
        for row in model.rows {
            let id = row.id
            let item = UI.actionRow(title: row.title, subtitle: row.subtitle) { [weak self] in self?.onOpen(id) }
            // A button as well as the row: screen readers (and AT-SPI) can press a button.
            let open = UI.iconButton("go-next-symbolic", name: "Open session \(id)") { [weak self] in self?.onOpen(id) }
            gtk_widget_add_css_class(open, "flat")
            gtk_widget_set_valign(open, GTK_ALIGN_CENTER)
            adw_action_row_add_suffix(cast(item), open)
            gtk_list_box_append(cast(list), item)
        }
        UI.append(content, list)
    }
}
