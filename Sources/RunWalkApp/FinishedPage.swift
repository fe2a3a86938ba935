import CAdwaita
import RunWalkAppModel
import RunWalkCore

/// The finished page: the summary, the per-interval planned-versus-actual table, the splits,
/// and the HTML report and GPX/TCX/FIT exports of the stored session.
@MainActor
final class FinishedPage {
    let root: Widget
    private let content = UI.box(true, spacing: 12)
    private var sessionID: Int64?
    /// Opens the report (the controller launches the browser) or exports (the file chooser).
    var onReport: (Int64) -> Void = { _ in }
    var onExport: (Int64, AppData.ExportFormat) -> Void = { _, _ in }
    /// "Done": back to the start page.
    var onDone: () -> Void = {}

    init() {
        UI.margins(content, 12)
        root = UI.scrolledClamp(content, maximumWidth: 720)
    }

    /// Shows `summary` of stored session `sessionID` (nil: not recorded, no report or export);
    /// `message` says what went wrong, if anything.
    func show(_ summary: Summary, sessionID: Int64?, message: String?) {
        self.sessionID = sessionID
        UI.clear(content)
        let model = FinishedPageModel(summary)
        UI.append(content, UI.label(model.title, classes: ["title-1"], name: "Result"),
                  UI.label(model.workout, classes: ["caption"], name: "Workout", wrap: true))
        if let message { UI.append(content, UI.label(message, classes: ["spec-error"], name: "Problem", wrap: true)) }
        UI.append(content, UI.label(model.distance, classes: ["big-figure"], name: "Total distance"))
        let figures = UI.box(false, spacing: 24, [
            figure(model.duration, "time", name: "Total time"),
            figure(model.averagePace, "average pace", name: "Average pace"),
        ])
        gtk_widget_set_halign(figures, GTK_ALIGN_CENTER)
        UI.append(content, figures, UI.label(model.detail, classes: ["caption"], name: "Elapsed"))

        if let sessionID {
            let report = UI.button("Open report", name: "Open report", classes: ["pill", "suggested-action"]) { [weak self] in self?.onReport(sessionID) }
            let exports = UI.box(false, spacing: 6, AppData.ExportFormat.allCases.map { format in
                let b = UI.button(format.rawValue.uppercased(), name: "Export \(format.rawValue.uppercased())", classes: ["pill"]) { [weak self] in
                    self?.onExport(sessionID, format)
                }
                gtk_widget_set_hexpand(b, 1)
                return b
            })
            UI.append(content, report, exports)
        }

        UI.append(content, UI.label("Intervals", classes: ["heading"], xalign: 0))
        UI.append(content, table(["#", "Phase", "Planned", "Actual", "Distance", "Pace"],
                                 model.intervals.map { [$0.number, $0.phase + ($0.note.isEmpty ? "" : " (\($0.note))"), $0.planned, $0.actual, $0.distance, $0.pace] },
                                 name: "Intervals"))
        UI.append(content, UI.label("Splits", classes: ["heading"], xalign: 0))
        if model.splits.isEmpty {
            UI.append(content, UI.label("No full kilometre yet", classes: ["caption"], xalign: 0))
        } else {
            UI.append(content, table(["#", "Distance", "Split", "Pace"], model.splits.map { [$0.number, $0.distance, $0.time, $0.pace] }, name: "Splits"))
        }
        let done = UI.button("Done", name: "Done", classes: ["pill"]) { [weak self] in self?.onDone() }
        gtk_widget_set_margin_top(done, 12)
        UI.append(content, done)
    }

    private func figure(_ value: String, _ caption: String, name: String) -> Widget {
        UI.box(true, spacing: 0, [UI.label(value, classes: ["stat-value"], name: name), UI.label(caption, classes: ["caption"])])
    }

    /// A table as a grid of labels (rows of equal cell count), horizontally scrollable when narrow.
    private func table(_ head: [String], _ rows: [[String]], name: String) -> Widget {
        let grid: Widget = gtk_grid_new()
        rw_accessible_label(grid, name)
        for (column, text) in head.enumerated() {
            gtk_grid_attach(cast(grid), UI.label(text, classes: ["table-head"], xalign: column == 1 ? 0 : 1), Int32(column), 0, 1, 1)
        }
        for (r, cells) in rows.enumerated() {
            for (column, text) in cells.enumerated() {
                gtk_grid_attach(cast(grid), UI.label(text, classes: ["table-cell"], xalign: column == 1 ? 0 : 1), Int32(column), Int32(r + 1), 1, 1)
            }
        }
        let scrolled: Widget = gtk_scrolled_window_new()
        gtk_scrolled_window_set_policy(cast(scrolled), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER)
        gtk_scrolled_window_set_propagate_natural_height(cast(scrolled), 1)
        gtk_scrolled_window_set_child(cast(scrolled), grid)
        return scrolled
    }
}
