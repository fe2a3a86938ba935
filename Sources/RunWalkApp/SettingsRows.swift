import CAdwaita
import RunWalkAppModel

/// libadwaita 1.2 preference rows with their accessible names, each calling `onChange` when the
/// runner (not the page filling it in) changes it. AdwSwitchRow and AdwSpinRow are 1.4: a
/// switch or spin button is an action row's suffix here.
@MainActor
enum SettingsRows {
    /// A preferences group with a title and optional description.
    static func group(_ title: String, description: String? = nil) -> Widget {
        let group: Widget = adw_preferences_group_new()
        adw_preferences_group_set_title(cast(group), title.markupEscaped)
        if let description { adw_preferences_group_set_description(cast(group), description.markupEscaped) }
        return group
    }

    static func add(_ group: Widget, _ rows: Widget...) {
        for row in rows { adw_preferences_group_add(cast(group), row) }
    }
}

/// A row choosing one of a few values (AdwComboRow over a GtkStringList).
@MainActor
final class ChoiceRow {
    let row: Widget = adw_combo_row_new()
    private(set) var choices: [SettingChoice] = []
    private var filling = false
    /// The runner picked a value.
    var onChange: (String) -> Void = { _ in }

    init(title: String, subtitle: String? = nil) {
        adw_preferences_row_set_title(cast(row), title.markupEscaped)
        if let subtitle { adw_action_row_set_subtitle(cast(row), subtitle.markupEscaped) }
        // Named by its title: libadwaita labels the row (and a suffix it activates) by the title
        // label; a label of our own as well would read twice ("Units Units").
        Signal.connectPointer(row, "notify::selected") { [weak self] _ in
            guard let self, !self.filling else { return }
            let index = Int(adw_combo_row_get_selected(cast(self.row)))
            if self.choices.indices.contains(index) { self.onChange(self.choices[index].value) }
        }
    }

    /// Shows `choices` with `selected` chosen, without calling `onChange`.
    func fill(_ choices: [SettingChoice], selected: Int) {
        filling = true
        defer { filling = false }
        if choices != self.choices {
            self.choices = choices
            let list = gtk_string_list_new(nil)
            for choice in choices { gtk_string_list_append(list, choice.label) }
            adw_combo_row_set_model(cast(row), list)
            g_object_unref(UnsafeMutableRawPointer(list))
        }
        adw_combo_row_set_selected(cast(row), guint(max(0, selected)))
    }

    /// The value chosen now.
    var value: String? {
        let index = Int(adw_combo_row_get_selected(cast(row)))
        return choices.indices.contains(index) ? choices[index].value : nil
    }
}

/// An on/off row: an action row with a switch (the row's tap flips it).
@MainActor
final class SwitchRow {
    let row: Widget = adw_action_row_new()
    let toggle: Widget = gtk_switch_new()
    private var filling = false
    /// The runner flipped it.
    var onChange: (Bool) -> Void = { _ in }

    init(title: String, subtitle: String? = nil) {
        adw_preferences_row_set_title(cast(row), title.markupEscaped)
        if let subtitle { adw_action_row_set_subtitle(cast(row), subtitle.markupEscaped) }
        gtk_widget_set_valign(toggle, GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(cast(row), toggle)
        adw_action_row_set_activatable_widget(cast(row), toggle)
        Signal.connectPointer(toggle, "notify::active") { [weak self] _ in
            guard let self, !self.filling else { return }
            self.onChange(gtk_switch_get_active(cast(self.toggle)) != 0)
        }
    }

    func fill(_ on: Bool) {
        filling = true
        defer { filling = false }
        gtk_switch_set_active(cast(toggle), on ? 1 : 0)
    }
}

/// A whole number in a range: an action row with a spin button.
@MainActor
final class NumberRow {
    let row: Widget = adw_action_row_new()
    let spin: Widget
    private var filling = false
    /// The runner changed the number.
    var onChange: (Int) -> Void = { _ in }

    init(title: String, subtitle: String? = nil, range: ClosedRange<Int>, step: Int = 1) {
        spin = gtk_spin_button_new_with_range(Double(range.lowerBound), Double(range.upperBound), Double(step))
        adw_preferences_row_set_title(cast(row), title.markupEscaped)
        if let subtitle { adw_action_row_set_subtitle(cast(row), subtitle.markupEscaped) }
        gtk_widget_set_valign(spin, GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(cast(row), spin)
        adw_action_row_set_activatable_widget(cast(row), spin)
        Signal.connect(spin, "value-changed") { [weak self] in
            guard let self, !self.filling else { return }
            self.onChange(Int(gtk_spin_button_get_value_as_int(cast(self.spin))))
        }
    }

    func fill(_ value: Int) {
        filling = true
        defer { filling = false }
        gtk_spin_button_set_value(cast(spin), Double(value))
    }
}

/// A line of text applied with Enter or the row's apply button (AdwEntryRow, libadwaita 1.2).
@MainActor
final class TextRow {
    let row: Widget = adw_entry_row_new()
    /// The runner applied the text.
    var onApply: (String) -> Void = { _ in }

    init(title: String) {
        adw_preferences_row_set_title(cast(row), title.markupEscaped)
        adw_entry_row_set_show_apply_button(cast(row), 1)
        // The text field inside is named by the row's title (libadwaita's labelled-by).
        // The apply button, or Enter in the field.
        for signal in ["apply", "entry-activated"] {
            Signal.connect(row, signal) { [weak self] in
                guard let self else { return }
                self.onApply(self.text)
                // libadwaita 1.2 keeps the apply button up after Enter; switching it off and on
                // puts the row back to "nothing to apply".
                adw_entry_row_set_show_apply_button(cast(self.row), 0)
                adw_entry_row_set_show_apply_button(cast(self.row), 1)
            }
        }
    }

    var text: String {
        gtk_editable_get_text(OpaquePointer(row)).map { String(cString: $0) } ?? ""
    }

    /// Shows `text` (left alone when it is there already: setting it again would show the
    /// apply button as if the runner had typed).
    func fill(_ text: String) {
        guard text != self.text else { return }
        gtk_editable_set_text(OpaquePointer(row), text)
    }
}
