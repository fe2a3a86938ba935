import CAdwaita
import Foundation
import RunWalkAppModel
import RunWalkDesktop

/// The heart-rate strap rows of the settings page: off, the first strap found, or one strap by
/// its address; "Scan" looks for straps through BlueZ as `runwalk sensors scan` does, on a
/// thread of its own (the scan takes seconds; the page stays live) and adds what it found.
@MainActor
final class HeartRateStrapRows {
    let choice = ChoiceRow(title: "Heart-rate strap")
    let scanRow: Widget = adw_action_row_new()
    private let scanButton: Widget
    private let spinner: Widget = gtk_spinner_new()
    private var found: [HeartRateStrapInfo] = []
    private var current: String?
    /// The runner chose `off`, `auto` or an address.
    var onChange: (String) -> Void = { _ in }
    var onToast: (String) -> Void = { _ in }
    /// How long a scan listens (`runwalk sensors scan`'s default).
    static let scanSeconds = 5.0

    init() {
        adw_preferences_row_set_title(cast(scanRow), "Find straps nearby")
        adw_action_row_set_subtitle(cast(scanRow), "Wear the strap: most only advertise with skin contact")
        scanButton = UI.button("Scan", name: "Scan for heart-rate straps") { }
        gtk_widget_set_valign(scanButton, GTK_ALIGN_CENTER)
        gtk_widget_set_visible(spinner, 0)
        rw_accessible_label(spinner, "Scanning")
        adw_action_row_add_suffix(cast(scanRow), spinner)
        adw_action_row_add_suffix(cast(scanRow), scanButton)
        Signal.connect(scanButton, "clicked") { [weak self] in self?.scan() }
        choice.onChange = { [weak self] value in
            self?.current = value
            self?.onChange(value)
        }
    }

    /// Shows the file's `hr` value among the choices.
    func fill(current: String?) {
        self.current = current
        let (choices, selected) = SettingsPageModel.heartRateChoices(
            current: current, found: found.map { ($0.name, $0.address, $0.batteryPercent) })
        choice.fill(choices, selected: selected)
    }

    private func scan() {
        gtk_widget_set_sensitive(scanButton, 0)
        gtk_widget_set_visible(spinner, 1)
        gtk_spinner_start(cast(spinner))
        adw_action_row_set_subtitle(cast(scanRow), "Looking for straps…")
        let seconds = Self.scanSeconds
        Thread.detachNewThread {
            let result = HeartRateStrap.scan(seconds: seconds)
            MainLoop.post { [weak self] in self?.scanned(result) }
        }
    }

    private func scanned(_ result: Result<[HeartRateStrapInfo], DesktopError>) {
        gtk_spinner_stop(cast(spinner))
        gtk_widget_set_visible(spinner, 0)
        gtk_widget_set_sensitive(scanButton, 1)
        switch result {
        case .failure(let error):
            adw_action_row_set_subtitle(cast(scanRow), "No scan: \(error.description)".markupEscaped)
        case .success(let straps):
            for strap in straps where !found.contains(where: { $0.address == strap.address }) { found.append(strap) }
            let text = straps.isEmpty ? "No strap found. Wear it and scan again."
                : "Found \(straps.count) strap\(straps.count == 1 ? "" : "s"): pick one above"
            adw_action_row_set_subtitle(cast(scanRow), text.markupEscaped)
            fill(current: current)
        }
    }
}
