import CAdwaita

/// The app's CSS: the phase tints and the large type of the live page.
///
/// Tints differ in lightness as well as hue, so warm-up, run, walk and cool-down stay apart in
/// greyscale (and for colour-blind runners): luma about 196, 87, 137 and 51 in the light style;
/// darker but in the same order in the dark style.
@MainActor
enum AppStyle {
    static let css = """
        .live-page { padding: 12px; }
        .live-page.phase-warmup { background-color: #f5c542; color: #1d1d1d; }
        .live-page.phase-run { background-color: #c62828; color: #ffffff; }
        .live-page.phase-walk { background-color: #3fb56e; color: #0b1f12; }
        .live-page.phase-cooldown { background-color: #123a66; color: #ffffff; }
        .dark .live-page.phase-warmup { background-color: #a87d12; color: #ffffff; }
        .dark .live-page.phase-run { background-color: #8e1b1b; color: #ffffff; }
        .dark .live-page.phase-walk { background-color: #1f7a45; color: #ffffff; }
        .dark .live-page.phase-cooldown { background-color: #0d2a4a; color: #ffffff; }
        .phase-title { font-size: 40px; font-weight: 900; }
        .phase-subtitle { font-size: 18px; font-weight: bold; }
        .time-left { font-size: 92px; font-weight: 900; font-feature-settings: "tnum"; }
        .live-page.paused .time-left { opacity: 0.5; }
        .caption { font-size: 14px; opacity: 0.85; }
        .stat-value { font-size: 28px; font-weight: bold; font-feature-settings: "tnum"; }
        .next-phase { font-size: 22px; font-weight: bold; }
        .big-button { min-height: 64px; font-size: 24px; font-weight: bold; padding-left: 16px; padding-right: 16px; }
        .stop-button { min-height: 48px; font-size: 18px; font-weight: bold; }
        progressbar.thick trough, progressbar.thick progress { min-height: 16px; border-radius: 8px; }
        .live-page progressbar trough { background-color: alpha(currentColor, 0.25); }
        .live-page progressbar progress { background-color: #ffffff; }
        .live-page.phase-warmup progressbar progress, .live-page.phase-walk progressbar progress { background-color: rgba(0, 0, 0, 0.75); }
        .dark .live-page.phase-warmup progressbar progress, .dark .live-page.phase-walk progressbar progress { background-color: #ffffff; }
        .live-page.phase-idle progressbar progress, .live-page.phase-done progressbar progress { background-color: @accent_bg_color; }
        .stat-big { font-size: 40px; font-weight: 900; font-feature-settings: "tnum"; }
        .live-page.side-by-side { padding: 8px; }
        .live-page.side-by-side .phase-title { font-size: 32px; }
        .live-page.side-by-side .time-left { font-size: 72px; }
        .live-page.side-by-side .next-phase { font-size: 18px; }
        .live-page.side-by-side .stat-big { font-size: 32px; }
        .live-page.side-by-side .stat-value { font-size: 24px; }
        .live-page.side-by-side .big-button { min-height: 44px; font-size: 20px; }
        .live-page.side-by-side .stop-button { min-height: 40px; }
        .strip-segment { min-height: 28px; border-radius: 3px; }
        .strip-segment.phase-warmup { background-color: #f5c542; }
        .strip-segment.phase-run { background-color: #c62828; }
        .strip-segment.phase-walk { background-color: #3fb56e; }
        .strip-segment.phase-cooldown { background-color: #123a66; }
        .spec-error { color: @error_color; font-weight: bold; }
        .big-figure { font-size: 48px; font-weight: 900; font-feature-settings: "tnum"; }
        .table-cell { font-feature-settings: "tnum"; padding: 2px 6px; }
        .table-head { font-weight: bold; padding: 2px 6px; }
        """

    /// Loads the CSS for the whole display.
    static func install() {
        guard let provider = gtk_css_provider_new(), let display = gdk_display_get_default() else { return }
        gtk_css_provider_load_from_data(provider, css, -1)
        gtk_style_context_add_provider_for_display(display, OpaquePointer(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    }
}
