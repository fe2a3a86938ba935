import CAdwaita
import Foundation
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
    private var figuresWatcher: WidthWatcher?
    /// The width the pictures are drawn at: the column's.
    private var width: Int32 = 336
    private var exportResult: Widget?
    /// A one-line message for the window's toast.
    var onToast: (String) -> Void = { _ in }
    /// The session was deleted: back to the history.
    var onDeleted: () -> Void = {}
    /// The name or note changed (the history re-reads).
    var onChanged: () -> Void = {}

    init() {
        HistoryStyle.install()
        // Kept alive while the page is rebuilt around it (taken out of one column, put into another).
        g_object_ref_sink(UnsafeMutableRawPointer(figures))
        UI.margins(content, 12)
        for column in [left, right] {
            gtk_widget_set_hexpand(column, 1)
            gtk_box_append(cast(columns), column)
        }
        UI.append(content, columns)
        root = UI.scrolledClamp(content, maximumWidth: 1200)
        watcher = WidthWatcher(root) { [weak self] width in self?.resized(width) }
        figuresWatcher = WidthWatcher(figures, step: 24) { [weak self] width in
            self?.width = width
            self?.drawFigures()
        }
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
        gtk_orientable_set_orientation(OpaquePointer(UnsafeMutableRawPointer(columns)), width >= 900 ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL)
        // Equal halves side by side; stacked, each column as tall as it is.
        gtk_box_set_homogeneous(cast(columns), width >= 900 ? 1 : 0)
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
        // Name and note, as `runwalk session rename/note`: each asked in a dialog (visible whatever the scroll).
        let rename = UI.button("Rename", name: "Rename session") { [weak self] in
            self?.edit(heading: "Rename the session", label: "Session name", text: shown.name ?? "", placeholder: "A name for this run") { text in
                try HistoryStore.rename(id, to: text)
                return text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? "The session has no name now." : "Renamed."
            }
        }
        let note = UI.button(shown.note == nil ? "Add note" : "Edit note", name: "Edit note") { [weak self] in
            self?.edit(heading: "Note on the session", label: "Session note", text: shown.note ?? "", placeholder: "How did it feel?") { text in
                try HistoryStore.note(id, text)
                return text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? "The note is removed." : "Noted."
            }
        }
        for b in [rename, note] { gtk_widget_set_hexpand(b, 1) }
        UI.append(left, UI.box(false, spacing: 6, [rename, note]))
        // The pace's unit goes under it, so three figures fit side by side at 360 px.
        var pace = model.averagePace, paceCaption = "average pace"
        for unit in [" /km", " /mi"] where pace.hasSuffix(unit) {
            pace = String(pace.dropLast(unit.count))
            paceCaption = "pace \(unit.dropFirst())"
        }
        let numbers = UI.box(false, spacing: 8, classes: ["figure-row"], [
            figure(model.distance, "distance", name: "Session distance"),
            figure(model.duration, "time", name: "Session time"),
            figure(pace, paceCaption, name: "Session pace"),
        ])
        // Not homogeneous: three equal thirds of the widest figure would not fit 360 px.
        var child = gtk_widget_get_first_child(numbers)
        while let c = child {
            gtk_widget_set_hexpand(c, 1)
            child = gtk_widget_get_next_sibling(c)
        }
        UI.append(left, numbers, UI.label(model.detail, classes: ["caption"], name: "Session elapsed", xalign: 0))
        UI.append(left, figures)
        drawFigures()

        FinishedPage.appendTables(model, to: right, intervalsHeading: "Intervals, planned and actual", intervalsName: "Session intervals",
                                  splitsName: "Session splits",
                                  noSplits: "No full \(summary.units == .metric ? "kilometre" : "mile") in this session")

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
        // A long path breaks anywhere rather than widening the page past a phone's width.
        gtk_label_set_wrap_mode(cast(result), PANGO_WRAP_WORD_CHAR)
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
        let w = Int(max(240, width))
        if let pace = SessionFigures.paceChart(shown.recorded, width: w, height: 200, scheme: scheme) {
            UI.append(figures, SVGPicture.make(pace, name: "Pace chart"))
        }
        if let distance = SessionFigures.distanceChart(shown.recorded, width: w, height: 170, scheme: scheme) {
            UI.append(figures, SVGPicture.make(distance, name: "Distance chart"))
        }
        if let route = SessionFigures.route(shown.recorded, width: w, scheme: scheme) {
            let unit = shown.recorded.summary.units == .metric ? "km" : "mile"
            UI.append(figures, UI.label("Route", classes: ["heading"], xalign: 0), SVGPicture.make(route, name: "Route map"),
                      UI.label("Coloured by pace, red fastest to blue slowest · S start, F finish, a numbered dot each \(unit)",
                               classes: ["caption"], wrap: true, xalign: 0))
        }
        if shown.recorded.track.isEmpty {
            UI.append(figures, UI.label("No GPS track was recorded: no charts or route.", classes: ["caption"], xalign: 0))
        }
    }

    /// Asks for a text (name or note) in a dialog; "Save" stores it, the result is told in a toast.
    private func edit(heading: String, label: String, text: String, placeholder: String,
                      save: @escaping @MainActor (String) throws -> String) {
        guard let window = gtk_widget_get_root(root) else { return }
        let dialog: Widget = adw_message_dialog_new(cast(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWidget.self)), heading, nil)
        let entry: Widget = gtk_entry_new()
        rw_accessible_label(entry, label)
        gtk_entry_set_placeholder_text(cast(entry), placeholder)
        gtk_entry_set_activates_default(cast(entry), 1)
        gtk_editable_set_text(OpaquePointer(UnsafeMutableRawPointer(entry)), text)
        adw_message_dialog_set_extra_child(cast(dialog), entry)
        adw_message_dialog_add_response(cast(dialog), "cancel", "Cancel")
        adw_message_dialog_add_response(cast(dialog), "save", "Save")
        adw_message_dialog_set_response_appearance(cast(dialog), "save", ADW_RESPONSE_SUGGESTED)
        adw_message_dialog_set_default_response(cast(dialog), "save")
        adw_message_dialog_set_close_response(cast(dialog), "cancel")
        Signal.connectPointer(dialog, "response") { [weak self] response in
            guard let self, let response, String(cString: response.assumingMemoryBound(to: CChar.self)) == "save" else { return }
            let value = gtk_editable_get_text(OpaquePointer(UnsafeMutableRawPointer(entry))).map { String(cString: $0) } ?? ""
            do {
                self.onToast(try save(value))
                self.onChanged()
                if let id = self.shown?.info.id { self.show(id) }
            } catch { self.onToast("\(error)") }
        }
        gtk_window_present(cast(dialog))
        gtk_widget_grab_focus(entry)
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
