import CAdwaita
import RunWalkAppModel
import RunWalkCore
import RunWalkReport
import RunWalkStore

/// A stored session: its figures, the pace and distance charts and the route (the report's,
/// drawn as pictures, offline), planned-versus-actual intervals and splits; rename, note,
/// delete (asked first) and GPX/TCX/FIT export into the documents folder. Two columns from 900 px.
@MainActor
final class SessionPage {
    let root: Widget
    private let content = UI.box(true, spacing: 12)
    private let columns = UI.box(false, spacing: 24)
    private let left = UI.box(true, spacing: 12)
    private let right = UI.box(true, spacing: 12)
    private let figures = UI.box(true, spacing: 12)
    private var shown: (recorded: RecordedSession, info: SessionInfo, name: String?, note: String?)?
    private var watcher: WidthWatcher?
    private var width: Int32 = 360
    private var exportResult: Widget?
    /// A one-line message for the window's toast.
    var onToast: (String) -> Void = { _ in }
    /// The session was deleted: back to the history.
    var onDeleted: () -> Void = {}
    /// The name or note changed (the history re-reads).
    var onChanged: () -> Void = {}

    init() {
        HistoryStyle.install()
        UI.margins(content, 12)
        for column in [left, right] {
            gtk_widget_set_hexpand(column, 1)
            gtk_box_append(cast(columns), column)
        }
        gtk_box_set_homogeneous(cast(columns), 1)
        UI.append(content, columns)
        root = UI.scrolledClamp(content, maximumWidth: 1200)
        watcher = WidthWatcher(root) { [weak self] width in self?.resized(width) }
    }

    /// Shows session `id`; false (and a banner) when it cannot be read.
    func show(_ id: Int64) {
        UI.clear(left)
        UI.clear(right)
        do { shown = try HistoryStore.session(id) } catch {
            shown = nil
            UI.append(left, HistoryPage.banner("\(error)"))
            return
        }
        render()
    }

    private func resized(_ width: Int32) {
        self.width = width
        gtk_orientable_set_orientation(OpaquePointer(UnsafeMutableRawPointer(columns)), width >= 900 ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL)
        drawFigures()
    }

    private func render() {
        guard let shown else { return }
        let id = shown.info.id
        let summary = shown.recorded.summary
        let model = FinishedPageModel(summary)
        let title = UI.label(shown.name ?? model.workout, classes: ["title-2"], name: "Session title", wrap: true, xalign: 0)
        let when = UI.label("\(Format.date(shown.info.date)) UTC · \(model.title)" + (shown.name == nil ? "" : " · \(model.workout)"),
                            classes: ["caption"], name: "Session date", wrap: true, xalign: 0)
        UI.append(left, title, when)
        if let note = shown.note { UI.append(left, UI.label(note, name: "Session note text", wrap: true, xalign: 0)) }
        let numbers = UI.box(false, spacing: 18, classes: ["figure-row"], [
            figure(model.distance, "distance", name: "Session distance"),
            figure(model.duration, "time", name: "Session time"),
            figure(model.averagePace, "average pace", name: "Session pace"),
        ])
        gtk_box_set_homogeneous(cast(numbers), 1)
        UI.append(left, numbers, UI.label(model.detail, classes: ["caption"], name: "Session elapsed", xalign: 0))
        UI.append(left, figures)
        drawFigures()

        // Rows, not a grid: planned against done reads at 360 px without sideways scrolling.
        UI.append(right, UI.label("Intervals, planned and actual", classes: ["heading"], xalign: 0))
        let intervals = UI.boxedList(name: "Session intervals")
        for i in model.intervals {
            let title = "\(i.number). \(i.phase) · \(i.actual) of \(i.planned)"
            let subtitle = [i.distance, i.pace, i.note].filter { !$0.isEmpty }.joined(separator: " · ")
            let row = UI.infoRow(title: title, subtitle: subtitle)
            rw_accessible_label(row, title)
            gtk_list_box_append(cast(intervals), row)
        }
        UI.append(right, intervals)
        UI.append(right, UI.label("Splits", classes: ["heading"], xalign: 0))
        if model.splits.isEmpty {
            UI.append(right, UI.label("No full \(summary.units == .metric ? "kilometre" : "mile") in this session", classes: ["caption"], xalign: 0))
        } else {
            let splits = UI.boxedList(name: "Session splits")
            for split in model.splits {
                let row = UI.infoRow(title: "\(split.number). \(split.distance) in \(split.time)", subtitle: split.pace)
                rw_accessible_label(row, "Split \(split.number): \(split.time), \(split.pace)")
                gtk_list_box_append(cast(splits), row)
            }
            UI.append(right, splits)
        }

        // Name and note, as `runwalk session rename/note`.
        UI.append(right, UI.label("Name and note", classes: ["heading"], xalign: 0))
        UI.append(right, editor(label: "Session name", placeholder: "A name for this run", text: shown.name ?? "", button: "Save name") { text in
            try HistoryStore.rename(id, to: text)
            return text.isEmpty ? "The session has no name now." : "Renamed."
        })
        UI.append(right, editor(label: "Session note", placeholder: "How did it feel?", text: shown.note ?? "", button: "Save note") { text in
            try HistoryStore.note(id, text)
            return text.isEmpty ? "The note is removed." : "Noted."
        })

        // Export, as `runwalk export`: into the documents folder, the path shown.
        UI.append(right, UI.label("Export", classes: ["heading"], xalign: 0))
        let exports = UI.box(false, spacing: 6, AppData.ExportFormat.allCases.map { format in
            let upper = format.rawValue.uppercased()
            let b = UI.button(upper, name: "Export as \(upper)", classes: ["pill"]) { [weak self] in self?.export(id, format) }
            gtk_widget_set_hexpand(b, 1)
            return b
        })
        let result = UI.label("Files go to \(HistoryStore.documentsFolder())/RunWalk", classes: ["caption"], name: "Export result", wrap: true, xalign: 0)
        gtk_label_set_selectable(cast(result), 1)
        exportResult = result
        UI.append(right, exports, result)

        let delete = UI.button("Delete session", name: "Delete session", classes: ["pill", "destructive-action"]) { [weak self] in self?.askDelete(id) }
        gtk_widget_set_margin_top(delete, 12)
        UI.append(right, delete)
    }

    /// The charts and the route at the page's width (redrawn when the width changes).
    private func drawFigures() {
        guard let shown else { return }
        UI.clear(figures)
        let scheme: SessionFigures.Scheme = adw_style_manager_get_dark(adw_style_manager_get_default()) != 0 ? .dark : .light
        let column = width >= 900 ? min(1200, width - 24) / 2 - 12 : min(720, width - 24)
        let w = Int(max(280, column))
        if let pace = SessionFigures.paceChart(shown.recorded, width: w, height: 200, scheme: scheme) {
            UI.append(figures, SVGPicture.make(pace, name: "Pace chart"))
        }
        if let distance = SessionFigures.distanceChart(shown.recorded, width: w, height: 170, scheme: scheme) {
            UI.append(figures, SVGPicture.make(distance, name: "Distance chart"))
        }
        if let route = SessionFigures.route(shown.recorded, width: w, scheme: scheme) {
            UI.append(figures, UI.label("Route", classes: ["heading"], xalign: 0), SVGPicture.make(route, name: "Route map"))
        }
        if shown.recorded.track.isEmpty {
            UI.append(figures, UI.label("No GPS track was recorded: no charts or route.", classes: ["caption"], xalign: 0))
        }
    }

    private func editor(label: String, placeholder: String, text: String, button: String,
                        save: @escaping @MainActor (String) throws -> String) -> Widget {
        let entry: Widget = gtk_entry_new()
        rw_accessible_label(entry, label)
        gtk_entry_set_placeholder_text(cast(entry), placeholder)
        gtk_editable_set_text(OpaquePointer(UnsafeMutableRawPointer(entry)), text)
        gtk_widget_set_hexpand(entry, 1)
        let apply = UI.button(button, name: button) { [weak self] in
            let value = gtk_editable_get_text(OpaquePointer(UnsafeMutableRawPointer(entry))).map { String(cString: $0) } ?? ""
            do {
                self?.onToast(try save(value))
                self?.onChanged()
                if let id = self?.shown?.info.id { self?.show(id) }
            } catch { self?.onToast("\(error)") }
        }
        Signal.connect(entry, "activate") { gtk_widget_activate(apply) }
        return UI.box(false, spacing: 6, [entry, apply])
    }

    private func export(_ id: Int64, _ format: AppData.ExportFormat) {
        do {
            let path = try HistoryStore.export(id, format: format)
            if let exportResult { UI.set(exportResult, "Exported to \(path)") }
            onToast("Exported to \(path)")
        } catch {
            if let exportResult { UI.set(exportResult, "\(error)") }
            onToast("\(error)")
        }
    }

    /// Deleting asks first: it cannot be undone.
    private func askDelete(_ id: Int64) {
        guard let window = gtk_widget_get_root(root) else { return }
        let what = shown.map { "\(Format.date($0.info.date)), \($0.recorded.summary.workout)" } ?? "session \(id)"
        let dialog: Widget = adw_message_dialog_new(cast(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWidget.self)),
                                                    "Delete this session?", "\(what). This cannot be undone; a plan day it did is due again.")
        adw_message_dialog_add_response(cast(dialog), "cancel", "Keep it")
        adw_message_dialog_add_response(cast(dialog), "delete", "Delete")
        adw_message_dialog_set_response_appearance(cast(dialog), "delete", ADW_RESPONSE_DESTRUCTIVE)
        adw_message_dialog_set_default_response(cast(dialog), "cancel")
        adw_message_dialog_set_close_response(cast(dialog), "cancel")
        Signal.connectPointer(dialog, "response") { [weak self] response in
            guard let self, let response, String(cString: response.assumingMemoryBound(to: CChar.self)) == "delete" else { return }
            do {
                try HistoryStore.delete(id)
                self.shown = nil
                self.onToast("Deleted session \(id).")
                self.onDeleted()
            } catch { self.onToast("\(error)") }
        }
        gtk_window_present(cast(dialog))
    }

    private func figure(_ value: String, _ caption: String, name: String) -> Widget {
        UI.box(true, spacing: 0, [UI.label(value, classes: ["stat-value"], name: name), UI.label(caption, classes: ["caption"])])
    }
}
