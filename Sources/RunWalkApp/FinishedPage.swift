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
        let workout = UI.label(model.workout, classes: ["caption"], name: "Workout", wrap: true)
        gtk_label_set_justify(cast(workout), GTK_JUSTIFY_CENTER)
        UI.append(content, UI.label(model.title, classes: ["title-1"], name: "Result"), workout)
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

        Self.appendTables(model, to: content, intervalsHeading: "Intervals", intervalsName: "Intervals", splitsName: "Splits",
                          noSplits: "No full kilometre yet")
        let done = UI.button("Done", name: "Done", classes: ["pill"]) { [weak self] in self?.onDone() }
        gtk_widget_set_margin_top(done, 12)
        UI.append(content, done)
    }

    private func figure(_ value: String, _ caption: String, name: String) -> Widget {
        UI.box(true, spacing: 0, [UI.label(value, classes: ["stat-value"], name: name), UI.label(caption, classes: ["caption"])])
    }
}

extension FinishedPage {
    /// The intervals (planned against done) and the splits, as rows: planned against done reads
    /// at 360 px without sideways scrolling. The finished page and a history session's page share it.
    static func appendTables(_ model: FinishedPageModel, to box: Widget, intervalsHeading: String, intervalsName: String,
                             splitsName: String, noSplits: String) {
        UI.append(box, UI.label(intervalsHeading, classes: ["heading"], xalign: 0))
        let intervals = UI.boxedList(name: intervalsName)
        for i in model.intervals {
            let title = "\(i.number). \(i.phase) · \(i.actual) of \(i.planned)"
            let subtitle = [i.distance, i.pace, i.note].filter { !$0.isEmpty }.joined(separator: " · ")
            gtk_list_box_append(cast(intervals), UI.infoRow(title: title, subtitle: subtitle))
        }
        UI.append(box, intervals)
        UI.append(box, UI.label("Splits", classes: ["heading"], xalign: 0))
        if model.splits.isEmpty {
            UI.append(box, UI.label(noSplits, classes: ["caption"], xalign: 0))
        } else {
            let splits = UI.boxedList(name: splitsName)
            for split in model.splits {
                gtk_list_box_append(cast(splits), UI.infoRow(title: "\(split.number). \(split.distance) in \(split.time)", subtitle: split.pace))
            }
            UI.append(box, splits)
        }
    }
}
