import CAdwaita
import RunWalkAppModel
import RunWalkCore
import RunWalkIO

/// The workouts page: add, rename, edit and delete named workouts in the same `workouts.txt`
/// that `runwalk workouts` uses, checked as it checks them (the spec as it is typed, with the
/// column of a mistake). Each edit changes the workout's own line (comments and order kept),
/// written atomically; a file with a bad line is named with the line and left alone until fixed.
@MainActor
final class WorkoutsPage {
    let root: Widget
    /// A short message for the window's toast overlay.
    var onToast: (String) -> Void = { _ in }
    /// The saved workouts changed (the start page lists them).
    var onChanged: () -> Void = {}
    private let file = WorkoutLibraryFile()
    private let page: Widget = adw_preferences_page_new()
    private let problem = SettingsRows.group("")
    private let problemRow: Widget = adw_action_row_new()
    private let form = SettingsRows.group("New workout")
    private let saved = SettingsRows.group("Your workouts", description: "Saved in workouts.txt, shared with the runwalk command")
    private let builtIn = SettingsRows.group("Built in", description: "Copy one to change it under your own name")
    private var rows: [Widget] = []
    private let nameEntry: Widget = gtk_entry_new()
    private let specEntry: Widget = gtk_entry_new()
    private let specProblem = UI.label("", classes: ["spec-error"], name: "Workout spec problem", wrap: true, xalign: 0)
    private let totals = UI.label("", classes: ["caption"], name: "New workout totals", wrap: true, xalign: 0)
    private let saveButton = UI.button("Add", name: "Add workout", classes: ["suggested-action"]) { }
    private let cancelButton = UI.button("Cancel", name: "Cancel editing") { }
    /// The saved workout being edited, nil when the form adds a new one.
    private var editing: String?

    init() {
        root = page
        rw_accessible_label(page, "Workouts")
        gtk_widget_add_css_class(problemRow, "error")
        adw_action_row_add_prefix(cast(problemRow), gtk_image_new_from_icon_name("dialog-warning-symbolic"))
        let reloadButton = UI.button("Reload", name: "Reload workouts", classes: ["flat"]) { [weak self] in self?.reload() }
        gtk_widget_set_valign(reloadButton, GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(cast(problemRow), reloadButton)
        rw_accessible_label(problemRow, "Workouts problem")
        SettingsRows.add(problem, problemRow)

        rw_accessible_label(nameEntry, "New workout name")
        gtk_entry_set_placeholder_text(cast(nameEntry), "name, e.g. tempo")
        rw_accessible_label(specEntry, "New workout spec")
        gtk_entry_set_placeholder_text(cast(specEntry), "5m warmup, 8x(90s run, 60s walk), 5m cooldown")
        gtk_widget_set_halign(saveButton, GTK_ALIGN_END)
        let buttons = UI.box(false, spacing: 6, [cancelButton, saveButton])
        gtk_widget_set_halign(buttons, GTK_ALIGN_END)
        SettingsRows.add(form, UI.box(true, spacing: 6, [nameEntry, specEntry, specProblem, totals, buttons]))
        for group in [problem, form, saved, builtIn] { adw_preferences_page_add(cast(page), cast(group)) }

        Signal.connect(saveButton, "clicked") { [weak self] in self?.save() }
        Signal.connect(cancelButton, "clicked") { [weak self] in self?.startNew(spec: "") }
        Signal.connect(specEntry, "changed") { [weak self] in self?.check() }
        Signal.connect(nameEntry, "changed") { [weak self] in self?.check() }
        Signal.connect(specEntry, "activate") { [weak self] in self?.save() }
        for entry in WorkoutLibrary.builtIns {
            let row = UI.infoRow(title: entry.name, subtitle: entry.spec)
            let spec = entry.spec
            let copy = UI.iconButton("edit-copy-symbolic", name: "Copy \(entry.name)") { [weak self] in self?.startNew(spec: spec) }
            gtk_widget_add_css_class(copy, "flat")
            gtk_widget_set_valign(copy, GTK_ALIGN_CENTER)
            adw_action_row_add_suffix(cast(row), copy)
            SettingsRows.add(builtIn, row)
        }
        reload()
        startNew(spec: "")
    }

    /// Reads `workouts.txt` again; a bad line is named and the page changes nothing until it is fixed.
    func reload() {
        for row in rows { adw_preferences_group_remove(cast(saved), row) }
        rows = []
        let document: WorkoutsDocument
        do { document = try file.loadDocument() } catch {
            gtk_widget_set_visible(problem, 1)
            adw_preferences_row_set_title(cast(problemRow), "Workouts are read-only until the file is fixed")
            adw_action_row_set_subtitle(cast(problemRow), "\(error)".markupEscaped)
            rw_accessible_description(problemRow, "\(error)")
            gtk_widget_set_sensitive(form, 0)
            return
        }
        gtk_widget_set_visible(problem, 0)
        gtk_widget_set_sensitive(form, 1)
        if document.library.userEntries.isEmpty {
            let row = UI.infoRow(title: "None yet", subtitle: "Workouts you add appear here and on the start page")
            rows.append(row)
            SettingsRows.add(saved, row)
        }
        for entry in document.library.userEntries {
            let row = UI.infoRow(title: entry.name, subtitle: entry.spec)
            rw_accessible_label(row, entry.name)
            let name = entry.name, spec = entry.spec
            let edit = UI.iconButton("document-edit-symbolic", name: "Edit \(name)") { [weak self] in self?.startEditing(name, spec) }
            let delete = UI.iconButton("user-trash-symbolic", name: "Delete \(name)") { [weak self] in self?.confirmDelete(name) }
            for button in [edit, delete] {
                gtk_widget_add_css_class(button, "flat")
                gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
                adw_action_row_add_suffix(cast(row), button)
            }
            rows.append(row)
            SettingsRows.add(saved, row)
        }
    }

    private func text(_ entry: Widget) -> String {
        gtk_editable_get_text(OpaquePointer(entry)).map { String(cString: $0) } ?? ""
    }

    /// The form empty (or with a built-in's spec to start from), adding a new workout.
    private func startNew(spec: String = "") {
        editing = nil
        adw_preferences_group_set_title(cast(form), "New workout")
        gtk_editable_set_text(OpaquePointer(nameEntry), "")
        gtk_editable_set_text(OpaquePointer(specEntry), spec)
        if !spec.isEmpty { gtk_widget_grab_focus(nameEntry) }
        gtk_button_set_label(cast(saveButton), "Add")
        rw_accessible_label(saveButton, "Add workout")
        gtk_widget_set_visible(cancelButton, 0)
        check()
    }

    private func startEditing(_ name: String, _ spec: String) {
        editing = name
        adw_preferences_group_set_title(cast(form), "Edit \(name)".markupEscaped)
        gtk_editable_set_text(OpaquePointer(nameEntry), name)
        gtk_editable_set_text(OpaquePointer(specEntry), spec)
        gtk_button_set_label(cast(saveButton), "Save")
        rw_accessible_label(saveButton, "Save workout")
        gtk_widget_set_visible(cancelButton, 1)
        gtk_widget_grab_focus(specEntry)
        check()
    }

    /// The spec (and name) checked as typed: the mistake with its column, or the workout's totals.
    private func check() {
        let spec = text(specEntry), name = text(nameEntry)
        var message = ""
        let attributes = pango_attr_list_new()
        if !spec.isEmpty {
            let preview = SpecPreview(spec)
            message = preview.problem?.message ?? ""
            UI.set(totals, preview.problem == nil ? preview.summary : "")
            // The wrong part underlined as on the start page (Pango counts bytes, the problem characters).
            if let problem = preview.problem, let underline = pango_attr_underline_new(PANGO_UNDERLINE_ERROR) {
                let characters = Array(spec)
                let start = String(characters[..<min(problem.offset, characters.count)]).utf8.count
                let end = String(characters[..<min(problem.offset + problem.length, characters.count)]).utf8.count
                underline.pointee.start_index = UInt32(start)
                underline.pointee.end_index = UInt32(max(end, start + 1))
                pango_attr_list_insert(attributes, underline)
            }
        } else {
            UI.set(totals, "")
        }
        gtk_entry_set_attributes(cast(specEntry), attributes)
        pango_attr_list_unref(attributes)
        if message.isEmpty, !name.isEmpty, let document = try? file.loadDocument(),
           let problem = document.problem(withNewName: name, replacing: editing) {
            message = "Name: " + (problem.column > 1 ? "column \(problem.column): " : "") + problem.message
        }
        gtk_widget_set_visible(totals, gtk_label_get_text(cast(totals)).map { $0.pointee != 0 } ?? false ? 1 : 0)
        UI.set(specProblem, message)
        gtk_widget_set_visible(specProblem, message.isEmpty ? 0 : 1)
        gtk_widget_set_sensitive(saveButton, message.isEmpty && !spec.isEmpty && !name.isEmpty ? 1 : 0)
    }

    private func save() {
        let name = text(nameEntry), spec = text(specEntry)
        guard !name.isEmpty, !spec.isEmpty else { return }
        let old = editing
        do {
            try file.edit { document in
                if let old {
                    if old.lowercased() != name.lowercased() { try document.rename(old, to: name) }
                    try document.update(name: name.lowercased(), spec: spec)
                } else {
                    try document.add(name: name, spec: spec)
                }
            }
        } catch let error as ConfigFileError {
            UI.set(specProblem, error.column > 1 ? "column \(error.column): \(error.message)" : error.message)
            gtk_widget_set_visible(specProblem, 1)
            return
        } catch {
            onToast("\(error)")
            reload()
            return
        }
        onToast(old == nil ? "Saved \(name.lowercased())" : "Updated \(name.lowercased())")
        reload()
        startNew()
        onChanged()
    }

    private func confirmDelete(_ name: String) {
        guard let window = gtk_widget_get_root(root) else { return }
        let dialog: Widget = adw_message_dialog_new(cast(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWidget.self)),
                                                    "Delete \(name)?", "Its line is removed from workouts.txt.")
        adw_message_dialog_add_response(cast(dialog), "keep", "Keep")
        adw_message_dialog_add_response(cast(dialog), "delete", "Delete")
        adw_message_dialog_set_response_appearance(cast(dialog), "delete", ADW_RESPONSE_DESTRUCTIVE)
        adw_message_dialog_set_default_response(cast(dialog), "keep")
        adw_message_dialog_set_close_response(cast(dialog), "keep")
        Signal.connectPointer(dialog, "response") { [weak self] response in
            guard let self, let response, String(cString: response.assumingMemoryBound(to: CChar.self)) == "delete" else { return }
            self.delete(name)
        }
        gtk_window_present(cast(dialog))
    }

    private func delete(_ name: String) {
        do { try file.edit { try $0.remove(name: name) } } catch {
            onToast("\(error)")
        }
        if editing == name { startNew() }
        reload()
        onChanged()
    }
}
