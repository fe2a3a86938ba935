import CAdwaita
import RunWalkAppModel

/// The app's pages in one navigation: an AdwViewStack whose switcher sits in the header bar
/// when the window is wide enough and in a bar at the bottom on a phone (360 px).
///
/// Each page is registered with one line (`register(.plans, "Plans", icon: …, page.root) { page.reload() }`);
/// a page asked for (`--page`) that this build does not have yet shows a placeholder.
@MainActor
final class AppNavigation {
    /// The view stack with the bottom switcher bar under it (the window's content while no session runs).
    let root: Widget
    /// The header bar's title: the switcher when it fits, else the window title.
    let title: Widget = adw_view_switcher_title_new()
    private let stack: Widget = adw_view_stack_new()
    private let bar: Widget = adw_view_switcher_bar_new()
    private var shown: [String: Action] = [:]
    private var wideHandlers: [@MainActor (Bool) -> Void] = []
    private var wide: Bool?
    /// Wider than this (in pixels), pages lay out in two columns.
    static let twoColumnWidth: Int32 = 860

    init() {
        adw_view_switcher_title_set_stack(cast(title), cast(stack))
        adw_view_switcher_title_set_title(cast(title), "RunWalk")
        // The header gives its title only the width asked for: expanding lets the switcher fit when wide.
        gtk_widget_set_hexpand(title, 1)
        adw_view_switcher_bar_set_stack(cast(bar), cast(stack))
        rw_accessible_label(bar, "Pages")
        // The bottom bar shows exactly when the header has no room for the switcher.
        g_object_bind_property(UnsafeMutableRawPointer(title), "title-visible", UnsafeMutableRawPointer(bar), "reveal", G_BINDING_SYNC_CREATE)
        gtk_widget_set_vexpand(stack, 1)
        root = UI.box(true, spacing: 0, [stack, bar])
        Signal.connectPointer(stack, "notify::visible-child-name") { [weak self] _ in self?.pageShown() }
    }

    /// Adds a page: its name (`--page NAME`), the switcher's title and icon, its widget, and
    /// what to do each time it is shown (read its data again).
    func register(_ page: AppPage, _ title: String, icon: String, _ widget: Widget, onShow: @escaping Action = {}) {
        guard shown[page.rawValue] == nil else { return }
        adw_view_stack_add_titled_with_icon(cast(stack), widget, page.rawValue, title, icon)
        shown[page.rawValue] = onShow
    }

    /// Whether `page` is in this build.
    func has(_ name: String) -> Bool { shown[name] != nil }

    /// Shows `page`; one this build lacks gets a placeholder saying so.
    func show(_ page: AppPage) {
        if !has(page.rawValue) {
            let placeholder: Widget = adw_status_page_new()
            let title = page.rawValue.prefix(1).uppercased() + page.rawValue.dropFirst()
            adw_status_page_set_title(cast(placeholder), title)
            adw_status_page_set_description(cast(placeholder), "This page is not in this build of RunWalk yet.")
            adw_status_page_set_icon_name(cast(placeholder), "dialog-information-symbolic")
            register(page, title, icon: "dialog-information-symbolic", placeholder)
        }
        if visible == page.rawValue { pageShown() } else { adw_view_stack_set_visible_child_name(cast(stack), page.rawValue) }
    }

    /// The page shown, by name.
    var visible: String {
        adw_view_stack_get_visible_child_name(cast(stack)).map { String(cString: $0) } ?? ""
    }

    private func pageShown() { shown[visible]?() }

    /// Calls `body` with true when the window is wide enough for two columns (now and at each change).
    func onWide(_ body: @escaping @MainActor (Bool) -> Void) {
        wideHandlers.append(body)
        if let wide { body(wide) }
    }

    /// Follows the window's width (its default width tracks the size it is given).
    func follow(window: Widget) {
        let update: @MainActor () -> Void = { [weak self] in
            guard let self else { return }
            // Both pointers: GTK 4.8 writes the height without checking for NULL.
            var width: Int32 = 0, height: Int32 = 0
            gtk_window_get_default_size(cast(window), &width, &height)
            let isWide = width >= Self.twoColumnWidth
            guard isWide != self.wide else { return }
            self.wide = isWide
            for handler in self.wideHandlers { handler(isWide) }
        }
        Signal.connectPointer(window, "notify::default-width") { _ in update() }
        update()
    }
}
