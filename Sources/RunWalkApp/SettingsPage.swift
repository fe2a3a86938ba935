import CAdwaita
import Foundation
import RunWalkAppModel
import RunWalkCore
import RunWalkGPS
import RunWalkIO

/// The settings page (libadwaita preferences): voice, units, auto-pause, countdown, hands-free,
/// the plan's done fraction, the GPS source and the heart-rate strap. Every change is one line
/// of the same `settings.conf` that `runwalk` reads, written atomically with the runner's
/// comments, order and other keys kept; a value `runwalk` would refuse is never written. A file
/// the page cannot read is named with its line, and the page changes nothing until it is fixed.
@MainActor
final class SettingsPage {
    let root: Widget
    /// A short message for the window's toast overlay.
    var onToast: (String) -> Void = { _ in }
    private let file = SettingsFile()
    private let page: Widget = adw_preferences_page_new()
    private let problem = SettingsRows.group("")
    private let problemRow: Widget = adw_action_row_new()
    private var groups: [Widget] = []

    private let voice = ChoiceRow(title: "Voice cues")
    private let language = ChoiceRow(title: "Language")
    private let duck = ChoiceRow(title: "Lower music during cues")
    private let units = ChoiceRow(title: "Units")
    private let autoPause = SwitchRow(title: "Auto-pause", subtitle: "Standing still pauses the workout")
    private let countdown = NumberRow(title: "Countdown", subtitle: "Seconds counted down before the first phase", range: 0...60)
    private let doneFraction = NumberRow(title: "Plan day done at", subtitle: "Percent of the day's run time", range: 50...100, step: 5)
    private let notify = SwitchRow(title: "Notifications", subtitle: "A notification at each phase change")
    private let haptics = SwitchRow(title: "Haptics", subtitle: "Vibrate at phase changes and the end")
    private let gpsKind = ChoiceRow(title: "GPS source")
    private let gpsdAddress = TextRow(title: "gpsd address (host:port)")
    private let serialDevice = ChoiceRow(title: "Serial receiver")
    private let trackFile = TextRow(title: "Track file")
    let strap = HeartRateStrapRows()
    private var gps = SettingsPageModel.GPS(spec: "gpsd")

    init() {
        root = page
        rw_accessible_label(page, "Settings")
        adw_preferences_row_set_title(cast(problemRow), "")
        gtk_widget_add_css_class(problemRow, "error")
        let warning: Widget = gtk_image_new_from_icon_name("dialog-warning-symbolic")
        adw_action_row_add_prefix(cast(problemRow), warning)
        let reloadButton = UI.button("Reload", name: "Reload settings", classes: ["flat"]) { [weak self] in self?.reload() }
        gtk_widget_set_valign(reloadButton, GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(cast(problemRow), reloadButton)
        rw_accessible_label(problemRow, "Settings problem")
        SettingsRows.add(problem, problemRow)
        adw_preferences_page_add(cast(page), cast(problem))

        let voiceGroup = SettingsRows.group("Voice")
        SettingsRows.add(voiceGroup, voice.row, language.row, duck.row)
        let workoutGroup = SettingsRows.group("Workout")
        SettingsRows.add(workoutGroup, units.row, autoPause.row, countdown.row, doneFraction.row)
        let handsFree = SettingsRows.group("Hands-free")
        SettingsRows.add(handsFree, notify.row, haptics.row)
        let gpsGroup = SettingsRows.group("GPS", description: "Used when no --gps is given")
        SettingsRows.add(gpsGroup, gpsKind.row, gpsdAddress.row, serialDevice.row, trackFile.row)
        let heartRate = SettingsRows.group("Heart rate", description: "A Bluetooth LE chest strap")
        SettingsRows.add(heartRate, strap.choice.row, strap.scanRow)
        groups = [voiceGroup, workoutGroup, handsFree, gpsGroup, heartRate]
        for group in groups { adw_preferences_page_add(cast(page), cast(group)) }

        voice.onChange = { [weak self] in self?.set("voice", $0) }
        language.onChange = { [weak self] in self?.set("language", $0) }
        duck.onChange = { [weak self] in self?.set("duck", $0) }
        units.onChange = { [weak self] in self?.set("units", $0) }
        autoPause.onChange = { [weak self] in self?.set("auto_pause", $0 ? "on" : "off") }
        countdown.onChange = { [weak self] in self?.set("countdown", String($0)) }
        doneFraction.onChange = { [weak self] in self?.set("plan.done_fraction", SettingsPageModel.fraction($0)) }
        notify.onChange = { [weak self] in self?.set("notify", $0 ? "on" : "off") }
        haptics.onChange = { [weak self] in self?.set("haptics", $0 ? "on" : "off") }
        gpsKind.onChange = { [weak self] kind in self?.changeGPS { $0.kind = kind } }
        gpsdAddress.onApply = { [weak self] text in self?.changeGPS { $0.gpsdAddress = text } }
        serialDevice.onChange = { [weak self] device in self?.changeGPS { $0.serialDevice = device } }
        trackFile.onApply = { [weak self] text in self?.changeGPS { $0.file = text } }
        strap.onChange = { [weak self] in self?.set("hr", $0) }
        strap.onToast = { [weak self] in self?.onToast($0) }
        reload()
    }

    /// Reads `settings.conf` again and shows what it holds; a file `runwalk` would refuse is
    /// named (with its line) and every control is greyed out until it is fixed.
    func reload() {
        let document: SettingsDocument
        do { document = try file.loadDocument() } catch {
            showProblem("\(error)")
            return
        }
        showProblem(nil)
        fill(document)
    }

    private func showProblem(_ text: String?) {
        gtk_widget_set_visible(problem, text == nil ? 0 : 1)
        if let text {
            // The page may be scrolled down where the runner last changed something: bring the
            // problem, at the top, into view (libadwaita 1.2 has no scroll_to_top).
            UI.scrollToTop(page)
            adw_preferences_row_set_title(cast(problemRow), "Settings are read-only until the file is fixed")
            adw_action_row_set_subtitle(cast(problemRow), text.markupEscaped)
            rw_accessible_description(problemRow, text)
        }
        for group in groups { gtk_widget_set_sensitive(group, text == nil ? 1 : 0) }
    }

    private func fill(_ document: SettingsDocument) {
        let value = document.value(of:)
        func pick(_ row: ChoiceRow, _ base: [SettingChoice], _ key: String, _ standard: String,
                  same: @escaping (String, String) -> Bool = { $0 == $1 }) {
            let (choices, selected) = SettingsPageModel.choices(base, current: value(key), standard: standard, same: same)
            row.fill(choices, selected: selected)
        }
        pick(voice, SettingsPageModel.voices, "voice", "speaker")
        pick(language, SettingsPageModel.languages, "language", "en")
        pick(duck, SettingsPageModel.duckLevels, "duck", "-12", same: SettingsPageModel.sameDuck)
        pick(units, SettingsPageModel.units, "units", "metric")
        let settings = document.settings
        autoPause.fill(settings.autoPause ?? false)
        countdown.fill(settings.countdownSeconds ?? 3)
        doneFraction.fill(SettingsPageModel.percent(settings.planDoneFraction))
        notify.fill(settings.notify ?? true)
        haptics.fill(settings.haptics ?? true)
        gps = SettingsPageModel.GPS(spec: settings.gps ?? "gpsd")
        fillGPS()
        strap.fill(current: value("hr"))
    }

    private func fillGPS() {
        let kinds = SettingsPageModel.gpsKinds
        gpsKind.fill(kinds, selected: kinds.firstIndex { $0.value == gps.kind } ?? 0)
        gpsdAddress.fill(gps.gpsdAddress)
        trackFile.fill(gps.file)
        var devices = SerialDevices.list().map { SettingChoice($0.name, $0.path) }
        if !gps.serialDevice.isEmpty, !devices.contains(where: { $0.value == gps.serialDevice }) {
            devices.append(SettingChoice(gps.serialDevice, gps.serialDevice))
        }
        serialDevice.fill(devices, selected: devices.firstIndex { $0.value == gps.serialDevice } ?? 0)
        adw_action_row_set_subtitle(cast(serialDevice.row), devices.isEmpty ? "No receiver in /dev/serial/by-id" : "")
        gtk_widget_set_visible(gpsdAddress.row, gps.kind == "gpsd" ? 1 : 0)
        gtk_widget_set_visible(serialDevice.row, gps.kind == "serial" ? 1 : 0)
        gtk_widget_set_visible(trackFile.row, gps.kind == "file" ? 1 : 0)
    }

    /// Changes one part of the GPS source; it is written once its spec is complete and `runwalk` takes it.
    private func changeGPS(_ change: (inout SettingsPageModel.GPS) -> Void) {
        change(&gps)
        if gps.kind == "serial", gps.serialDevice.isEmpty { gps.serialDevice = serialDevice.value ?? "" }
        fillGPS()
        guard let spec = gps.spec else { return }
        if case .failure(let error) = Result(catching: { try GPSSourceSpec(parsing: spec) }) {
            onToast("\(error)")
            return
        }
        set("gps", spec)
    }

    /// Writes `key = value` into the file as it is now; a refusal is said and the page shows the file again.
    private func set(_ key: String, _ value: String) {
        do {
            try file.edit { try $0.set(key, to: value) }
        } catch let error as ConfigFileError {
            onToast("\(UserText.path(file.url.path)): \(error.description)")
            reload()
        } catch {
            onToast("\(error)")
            reload()
        }
    }
}

/// The serial receivers the system names by id (`/dev/serial/by-id`), as udev links them.
enum SerialDevices {
    static func list(folder: String = "/dev/serial/by-id") -> [(name: String, path: String)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        return names.sorted().map { ($0, folder + "/" + $0) }
    }
}
