import CAdwaita

/// The header bar's page menu: one button ("Pages") opening a popover with a button per page
/// (Workouts, Settings, …), each opening its page in the window's stack by name. Plain buttons
/// rather than a GMenu: a screen reader (and the AT-SPI tests) can press each one.
@MainActor
final class PageMenu {
    let button: Widget
    private let popover: Widget = gtk_popover_new()
    private let list = UI.box(true, spacing: 2)

    /// `pages`: the stack's page names with their titles; `open` shows one.
    init(pages: [(name: String, title: String)], open: @escaping (String) -> Void) {
        button = gtk_button_new_from_icon_name("open-menu-symbolic")
        rw_accessible_label(button, "Pages")
        gtk_widget_set_tooltip_text(button, "Pages")
        gtk_popover_set_child(cast(popover), list)
        gtk_widget_set_parent(popover, button)
        // A popover set on a plain button is its child: it goes before the button does.
        let popover = self.popover
        Signal.connect(button, "destroy") { gtk_widget_unparent(popover) }
        for page in pages {
            let name = page.name
            let item = UI.button(page.title, name: page.title, classes: ["flat"]) { [weak self] in
                if let popover = self?.popover { gtk_popover_popdown(cast(popover)) }
                open(name)
            }
            if let label = gtk_button_get_child(cast(item)) { gtk_label_set_xalign(cast(label), 0) }
            gtk_box_append(cast(list), item)
        }
        Signal.connect(button, "clicked") { [weak self] in
            if let popover = self?.popover { gtk_popover_popup(cast(popover)) }
        }
    }
}
