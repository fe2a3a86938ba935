import CAdwaita
import RunWalkAppModel
import RunWalkCore

/// The history and session pages' own CSS (the calendar's day marks, the problem banner).
@MainActor
enum HistoryStyle {
    static let css = """
        .calendar-day { min-width: 40px; min-height: 40px; padding: 0; border-radius: 999px; font-feature-settings: "tnum"; }
        .calendar-day.run { background-color: @accent_bg_color; color: @accent_fg_color; font-weight: bold; }
        .calendar-day.due { box-shadow: inset 0 0 0 2px @accent_color; }
        .calendar-day.today { text-decoration: underline; font-weight: 900; }
        .calendar-head { font-size: 12px; font-weight: bold; opacity: 0.7; }
        .calendar-key { font-size: 13px; opacity: 0.85; }
        .key-run { min-width: 14px; min-height: 14px; border-radius: 999px; background-color: @accent_bg_color; }
        .key-due { min-width: 14px; min-height: 14px; border-radius: 999px; box-shadow: inset 0 0 0 2px @accent_color; }
        .store-banner { background-color: alpha(@error_color, 0.14); border-radius: 12px; padding: 12px; }
        .store-banner label { color: @error_color; }
        .month-title { font-size: 20px; font-weight: bold; }
        .figure-row .stat-value { font-size: 24px; }
        .chart-picture { border-radius: 10px; }
        """

    private static var installed = false

    /// Loads the CSS once for the whole display.
    static func install() {
        guard !installed, let provider = gtk_css_provider_new(), let display = gdk_display_get_default() else { return }
        installed = true
        gtk_css_provider_load_from_data(provider, css, -1)
        gtk_style_context_add_provider_for_display(display, OpaquePointer(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    }
}

/// A picture of an SVG document (the report's charts and route), decoded by gdk-pixbuf's SVG loader (librsvg).
@MainActor
enum SVGPicture {
    /// The picture with its accessible name, or a caption saying why there is none.
    static func make(_ svg: String, name: String) -> Widget {
        let utf8 = Array(svg.utf8)
        let bytes = utf8.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        var error: UnsafeMutablePointer<GError>?
        guard let texture = gdk_texture_new_from_bytes(bytes, &error) else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown reason"
            g_clear_error(&error)
            AppLog.warning("runwalk-app: \(name): cannot draw the picture: \(reason) (is librsvg2-common installed?)")
            return UI.label("\(name): cannot draw the picture (\(reason))", classes: ["caption"], name: name, wrap: true)
        }
        defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
        let picture: Widget = gtk_picture_new_for_paintable(texture)
        // It may shrink sideways (the page redraws it at the new width), but keeps its height: a
        // scrolled page gives each child its minimum height, which for a shrinkable picture is 0.
        gtk_picture_set_can_shrink(cast(picture), 1)
        gtk_widget_set_size_request(picture, -1, gdk_texture_get_height(texture))
        gtk_widget_add_css_class(picture, "chart-picture")
        rw_accessible_label(picture, name)
        return picture
    }
}

/// Calls back when a widget's width crosses into another band (a frame-clock tick, cheap when nothing changed):
/// the pages re-lay themselves out for a phone or a desktop and redraw their pictures at the new width.
@MainActor
final class WidthWatcher {
    private var last: Int32 = -1
    private let step: Int32
    private let body: @MainActor (Int32) -> Void

    init(_ widget: Widget, step: Int32 = 60, _ body: @escaping @MainActor (Int32) -> Void) {
        self.step = step
        self.body = body
        let data = Unmanaged.passRetained(self).toOpaque()
        _ = gtk_widget_add_tick_callback(widget, { widget, _, data in
            guard let widget, let data else { return 0 }
            let watcher = Unmanaged<WidthWatcher>.fromOpaque(data).takeUnretainedValue()
            let width = gtk_widget_get_width(widget)
            MainActor.assumeIsolated { watcher.seen(width) }
            return 1
        }, data, { data in
            if let data { Unmanaged<WidthWatcher>.fromOpaque(data).release() }
        })
    }

    private func seen(_ width: Int32) {
        guard width > 0, abs(width - last) >= step || (width >= 900) != (last >= 900) else { return }
        last = width
        body(width)
    }
}

/// The month grid: a header of weekday letters and a round button per day, filled for a run
/// day, ringed for a plan day due; each named for a screen reader ("Tuesday 3 November: 2 runs, 5.00 km").
@MainActor
enum CalendarGrid {
    static func make(_ model: HistoryCalendarModel, onDay: @escaping @MainActor (CalendarDay) -> Void) -> Widget {
        let grid: Widget = gtk_grid_new()
        gtk_grid_set_column_homogeneous(cast(grid), 1)
        gtk_grid_set_row_spacing(cast(grid), 4)
        gtk_grid_set_column_spacing(cast(grid), 4)
        rw_accessible_label(grid, "Calendar of \(model.title)")
        for (column, letter) in ["M", "T", "W", "T", "F", "S", "S"].enumerated() {
            let head = UI.label(letter, classes: ["calendar-head"])
            rw_accessible_label(head, ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][column])
            gtk_grid_attach(cast(grid), head, Int32(column), 0, 1, 1)
        }
        for (row, week) in model.weeks.enumerated() {
            for (column, cell) in week.days.enumerated() {
                guard let cell else { continue }
                let day = cell.day
                let button = UI.button(cell.number, name: cell.accessibleName, classes: ["calendar-day", "flat"]) { onDay(day) }
                if cell.runs > 0 { gtk_widget_add_css_class(button, "run") }
                if cell.due { gtk_widget_add_css_class(button, "due") }
                if cell.isToday { gtk_widget_add_css_class(button, "today") }
                gtk_widget_set_tooltip_text(button, cell.accessibleName)
                gtk_widget_set_halign(button, GTK_ALIGN_CENTER)
                gtk_grid_attach(cast(grid), button, Int32(column), Int32(row + 1), 1, 1)
            }
        }
        return grid
    }

    /// "● a run  ◯ a plan day due".
    static func key() -> Widget {
        let run = UI.box(false, spacing: 0, classes: ["key-run"]), due = UI.box(false, spacing: 0, classes: ["key-due"])
        for dot in [run, due] { gtk_widget_set_valign(dot, GTK_ALIGN_CENTER) }
        let box = UI.box(false, spacing: 6, [run, UI.label("a run", classes: ["calendar-key"]), due,
                                              UI.label("a plan day due", classes: ["calendar-key"])])
        gtk_widget_set_margin_start(due, 12)
        gtk_widget_set_halign(box, GTK_ALIGN_CENTER)
        return box
    }
}
