import CAdwaita

/// Small builders for the widgets the pages are made of; each control gets its accessible name here.
@MainActor
enum UI {
    /// A label with CSS classes. Its accessible name is its text (read out as it changes);
    /// `name` says what the value is, as the accessible description ("Time left").
    static func label(_ text: String, classes: [String] = [], name: String? = nil, wrap: Bool = false, xalign: Float = 0.5) -> Widget {
        let label: Widget = gtk_label_new(text)
        for c in classes { gtk_widget_add_css_class(label, c) }
        if let name { rw_accessible_description(label, name) }
        gtk_label_set_wrap(cast(label), wrap ? 1 : 0)
        gtk_label_set_xalign(cast(label), xalign)
        return label
    }

    /// Sets a label's text only when it changed (no needless accessibility events).
    static func set(_ label: Widget, _ text: String) {
        if let current = gtk_label_get_text(cast(label)), String(cString: current) == text { return }
        gtk_label_set_text(cast(label), text)
    }

    /// A button with a label, an accessible name and an action.
    static func button(_ text: String, name: String, classes: [String] = [], action: @escaping Action) -> Widget {
        let button: Widget = gtk_button_new_with_label(text)
        for c in classes { gtk_widget_add_css_class(button, c) }
        rw_accessible_label(button, name)
        Signal.connect(button, "clicked", action)
        return button
    }

    /// An icon button (header bars) with its accessible name and tooltip.
    static func iconButton(_ icon: String, name: String, action: @escaping Action) -> Widget {
        let button: Widget = gtk_button_new_from_icon_name(icon)
        rw_accessible_label(button, name)
        gtk_widget_set_tooltip_text(button, name)
        Signal.connect(button, "clicked", action)
        return button
    }

    /// A vertical or horizontal box.
    static func box(_ vertical: Bool, spacing: Int32 = 12, classes: [String] = [], _ children: [Widget] = []) -> Widget {
        let box: Widget = gtk_box_new(vertical ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL, spacing)
        for c in classes { gtk_widget_add_css_class(box, c) }
        for child in children { gtk_box_append(cast(box), child) }
        return box
    }

    /// Appends children to a box.
    static func append(_ box: Widget, _ children: Widget...) {
        for child in children { gtk_box_append(cast(box), child) }
    }

    /// Removes every child of a box.
    static func clear(_ box: Widget) {
        while let child = gtk_widget_get_first_child(box) { gtk_box_remove(cast(box), child) }
    }

    /// A progress bar with its accessible name.
    static func progress(name: String, classes: [String] = []) -> Widget {
        let bar: Widget = gtk_progress_bar_new()
        rw_accessible_label(bar, name)
        for c in classes { gtk_widget_add_css_class(bar, c) }
        return bar
    }

    /// Content kept to a readable width (AdwClamp), scrolled when taller than the window.
    /// `scrollsSideways`: a page wider than a phone scrolls rather than widening the window.
    static func scrolledClamp(_ child: Widget, maximumWidth: Int32 = 720, scrollsSideways: Bool = true) -> Widget {
        let clamp: Widget = adw_clamp_new()
        adw_clamp_set_maximum_size(cast(clamp), maximumWidth)
        adw_clamp_set_child(cast(clamp), child)
        let scrolled: Widget = gtk_scrolled_window_new()
        gtk_scrolled_window_set_policy(cast(scrolled), scrollsSideways ? GTK_POLICY_AUTOMATIC : GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(cast(scrolled), clamp)
        gtk_widget_set_vexpand(scrolled, 1)
        return scrolled
    }

    /// Margins on every side.
    static func margins(_ widget: Widget, _ value: Int32) {
        gtk_widget_set_margin_top(widget, value)
        gtk_widget_set_margin_bottom(widget, value)
        gtk_widget_set_margin_start(widget, value)
        gtk_widget_set_margin_end(widget, value)
    }

    /// A boxed list (libadwaita's card-like list style).
    static func boxedList(name: String) -> Widget {
        let list: Widget = gtk_list_box_new()
        gtk_widget_add_css_class(list, "boxed-list")
        gtk_list_box_set_selection_mode(cast(list), GTK_SELECTION_NONE)
        rw_accessible_label(list, name)
        return list
    }

    /// An activatable row with a title and subtitle (AdwActionRow) calling `action` when activated.
    static func actionRow(title: String, subtitle: String, action: @escaping Action) -> Widget {
        let row: Widget = adw_action_row_new()
        adw_preferences_row_set_title(cast(row), title.markupEscaped)
        adw_action_row_set_subtitle(cast(row), subtitle.markupEscaped)
        gtk_list_box_row_set_activatable(cast(row), 1)
        rw_accessible_label(row, title)
        Signal.connect(row, "activated", action)
        return row
    }

    /// A plain row with a title and subtitle.
    static func infoRow(title: String, subtitle: String) -> Widget {
        let row: Widget = adw_action_row_new()
        adw_preferences_row_set_title(cast(row), title.markupEscaped)
        adw_action_row_set_subtitle(cast(row), subtitle.markupEscaped)
        return row
    }

    /// Replaces the tint class (phase-…) on a widget.
    static func tint(_ widget: Widget, _ cssClass: String, among all: [String]) {
        for c in all where c != cssClass { gtk_widget_remove_css_class(widget, c) }
        gtk_widget_add_css_class(widget, cssClass)
    }

    /// Scrolls the first scrolled window inside `widget` (itself included) back to its top.
    static func scrollToTop(_ widget: Widget) {
        var pending = [widget]
        while !pending.isEmpty {
            let next = pending.removeFirst()
            if g_type_check_instance_is_a(UnsafeMutableRawPointer(next).assumingMemoryBound(to: GTypeInstance.self),
                                          gtk_scrolled_window_get_type()) != 0 {
                gtk_adjustment_set_value(gtk_scrolled_window_get_vadjustment(cast(next)), 0)
                return
            }
            var child = gtk_widget_get_first_child(next)
            while let c = child {
                pending.append(c)
                child = gtk_widget_get_next_sibling(c)
            }
        }
    }
}
