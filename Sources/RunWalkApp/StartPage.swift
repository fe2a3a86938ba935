import CAdwaita
import RunWalkAppModel
import RunWalkCore

/// The start page: named workouts, a spec checked as it is typed (the wrong part underlined
/// and named) with a timeline preview, a builder, the GPS source, voice on/off and Start.
@MainActor
final class StartPage {
    let root: Widget
    private let content = UI.box(true, spacing: 12)
    private let entry: Widget = gtk_entry_new()
    private let problem = UI.label("", classes: ["spec-error"], name: "Workout problem", wrap: true, xalign: 0)
    private let strip = UI.box(false, spacing: 2)
    private let totals = UI.label("", classes: ["caption"], name: "Workout totals", xalign: 0)
    private let workouts = UI.boxedList(name: "Workouts")
    private let gpsEntry: Widget = gtk_entry_new()
    private let gpsState = UI.label("", classes: ["caption"], name: "GPS state", wrap: true, xalign: 0)
    private let voiceSwitch: Widget = gtk_switch_new()
    private let saveName: Widget = gtk_entry_new()
    private let saveResult = UI.label("", classes: ["caption"], name: "Save result", wrap: true, xalign: 0)
    private var startButton: Widget?
    private var builder = WorkoutBuilder()
    private var preview = SpecPreview("")
    private var library = WorkoutLibrary()
    private let probe = GPSProbe()
    /// Start pressed with a good workout: the spec as typed, the GPS source, voice on.
    var onStart: (Workout, String, Bool) -> Void = { _, _, _ in }
    /// The plan card: today's plan day first while a plan is followed.
    private let planCard = PlanCard()
    private let workoutHeading = StartPage.heading("Workout")
    /// The plan day's Start pressed: the day (`runwalk run next`'s), the GPS source, voice on.
    var onStartPlanDay: (PlanDay, String, Bool) -> Void = { _, _, _ in }

    init(gps: String, voice: Bool) {
        root = UI.scrolledClamp(content, maximumWidth: 640)
        UI.margins(content, 12)

        UI.append(content, planCard.root, workoutHeading)
        planCard.onStart = { [weak self] day in
            guard let self else { return }
            self.probe.stop()
            self.onStartPlanDay(day, self.gpsSource, gtk_switch_get_active(cast(self.voiceSwitch)) != 0)
        }
        rw_accessible_label(entry, "Workout spec")
        gtk_entry_set_placeholder_text(cast(entry), "5m warmup, 8x(90s run, 60s walk), 5m cooldown")
        gtk_widget_set_hexpand(entry, 1)
        UI.append(content, entry, problem, strip, totals)

        UI.append(content, Self.heading("GPS and voice"))
        rw_accessible_label(gpsEntry, "GPS source")
        gtk_editable_set_text(OpaquePointer(gpsEntry), gps)
        UI.append(content, gpsEntry, gpsState)
        let voiceLabel = UI.label("Voice cues", xalign: 0)
        gtk_widget_set_hexpand(voiceLabel, 1)
        rw_accessible_label(voiceSwitch, "Voice cues")
        gtk_switch_set_active(cast(voiceSwitch), voice ? 1 : 0)
        gtk_widget_set_valign(voiceSwitch, GTK_ALIGN_CENTER)
        UI.append(content, UI.box(false, spacing: 12, [voiceLabel, voiceSwitch]))

        let start = UI.button("Start", name: "Start", classes: ["suggested-action", "pill", "big-button"]) { [weak self] in self?.start() }
        gtk_widget_set_margin_top(start, 12)
        startButton = start
        UI.append(content, start)

        // What a runner picks from comes after Start: at 360×720 Start is on the first screen.
        UI.append(content, Self.heading("Named workouts"), workouts)

        UI.append(content, Self.heading("Build a workout"), builderGrid())


        Signal.connect(entry, "changed") { [weak self] in self?.check() }
        Signal.connect(entry, "activate") { [weak self] in self?.start() }
        updateGPSLine()
        // Probed again when the runner presses Enter in the field (not at every key: a half-typed
        // path or host is not worth opening).
        Signal.connect(gpsEntry, "activate") { [weak self] in self?.updateGPSLine() }
        reload()
        gtk_editable_set_text(OpaquePointer(entry), builder.spec)
    }

    private static func heading(_ text: String) -> Widget {
        let label = UI.label(text, classes: ["heading"], xalign: 0)
        gtk_widget_set_margin_top(label, 6)
        return label
    }

    /// Reloads the named workouts (after a save, or when the page is shown again).
    func reload() {
        planCard.reload()
        UI.set(workoutHeading, gtk_widget_get_visible(planCard.root) != 0 ? "Or another workout" : "Workout")
        library = AppData.library()
        while let row = gtk_widget_get_first_child(workouts) { gtk_list_box_remove(cast(workouts), row) }
        for item in library.entries {
            let spec = item.spec
            let row = UI.actionRow(title: item.name, subtitle: spec) { [weak self] in
                guard let self else { return }
                gtk_editable_set_text(OpaquePointer(self.entry), spec)
            }
            gtk_list_box_append(cast(workouts), row)
        }
    }

    /// The spec being typed, as typed.
    var spec: String {
        guard let text = gtk_editable_get_text(OpaquePointer(entry)) else { return "" }
        return String(cString: text)
    }

    /// Checks the spec: underlines the wrong part in the entry and names it, or draws the strip.
    private func check() {
        preview = SpecPreview(spec, library: library)
        let attributes = pango_attr_list_new()
        if let p = preview.problem {
            // The message names the part already; the entry underlines it.
            UI.set(problem, p.message)
            gtk_widget_set_visible(problem, 1)
            // Pango counts bytes; the problem counts characters.
            let characters = Array(spec)
            let start = String(characters[..<min(p.offset, characters.count)]).utf8.count
            let end = String(characters[..<min(p.offset + p.length, characters.count)]).utf8.count
            if let underline = pango_attr_underline_new(PANGO_UNDERLINE_ERROR) {
                underline.pointee.start_index = UInt32(start)
                underline.pointee.end_index = UInt32(max(end, start + 1))
                pango_attr_list_insert(attributes, underline)
            }
        } else {
            UI.set(problem, "")
            gtk_widget_set_visible(problem, 0)
        }
        gtk_entry_set_attributes(cast(entry), attributes)
        pango_attr_list_unref(attributes)
        UI.clear(strip)
        // About 240 px for the whole workout (fits 360 px with gaps); every phase stays visible.
        for segment in preview.segments {
            let piece = UI.box(false, spacing: 0, classes: ["strip-segment", PhaseLook.cssClass(segment.kind)])
            gtk_widget_set_size_request(piece, max(2, Int32((segment.share * 240).rounded())), 28)
            gtk_widget_set_tooltip_text(piece, segment.label)
            gtk_box_append(cast(strip), piece)
        }
        rw_accessible_label(strip, "Timeline: " + preview.segments.map(\.label).joined(separator: ", "))
        UI.set(totals, preview.problem == nil ? preview.summary : "")
        if let startButton { gtk_widget_set_sensitive(startButton, preview.workout == nil ? 0 : 1) }
    }

    private var gpsSource: String {
        gtk_editable_get_text(OpaquePointer(gpsEntry)).map { String(cString: $0) } ?? ""
    }

    /// Reads the GPS source typed (again) and shows its state.
    private func updateGPSLine() {
        let label = gpsState
        probe.start(gpsSource) { line in UI.set(label, line) }
    }

    /// The page is shown again: the GPS is read again.
    func resumeProbe() { updateGPSLine() }

    /// A session is about to open the source: stop reading it here.
    func stopProbe() { probe.stop() }

    private func start() {
        guard let workout = preview.workout else { return }
        let gps = gpsSource
        probe.stop()
        onStart(workout, gps, gtk_switch_get_active(cast(voiceSwitch)) != 0)
    }

    /// One spin button of the builder; a change rewrites the spec field.
    private func stepper(_ title: String, _ value: Int, _ range: ClosedRange<Double>, step: Double,
                         _ set: @escaping @MainActor (inout WorkoutBuilder, Int) -> Void) -> Widget {
        let spin: Widget = gtk_spin_button_new_with_range(range.lowerBound, range.upperBound, step)
        gtk_spin_button_set_value(cast(spin), Double(value))
        rw_accessible_label(spin, title)
        let pointer = OpaquePointer(spin)
        Signal.connect(spin, "value-changed") { [weak self] in
            guard let self else { return }
            set(&self.builder, Int(gtk_spin_button_get_value_as_int(pointer)))
            gtk_editable_set_text(OpaquePointer(self.entry), self.builder.spec)
        }
        return spin
    }

    /// The builder's steppers (they write the spec) and "Save" (under a name).
    private func builderGrid() -> Widget {
        let grid: Widget = gtk_grid_new()
        gtk_grid_set_row_spacing(cast(grid), 6)
        gtk_grid_set_column_spacing(cast(grid), 12)
        var row: Int32 = 0
        func stepper(_ title: String, _ value: Int, _ range: ClosedRange<Double>, step: Double, _ set: @escaping @MainActor (inout WorkoutBuilder, Int) -> Void) {
            let label = UI.label(title, xalign: 0)
            gtk_widget_set_hexpand(label, 1)
            let spin = self.stepper(title, value, range, step: step, set)
            gtk_grid_attach(cast(grid), label, 0, row, 1, 1)
            gtk_grid_attach(cast(grid), spin, 1, row, 1, 1)
            row += 1
        }
        stepper("Warm-up minutes", builder.warmupMinutes, 0...60, step: 1) { $0.warmupMinutes = $1 }
        stepper("Run seconds", builder.runSeconds, 10...3600, step: 10) { $0.runSeconds = $1 }
        stepper("Walk seconds", builder.walkSeconds, 0...3600, step: 10) { $0.walkSeconds = $1 }
        stepper("Repeats", builder.repeats, 1...50, step: 1) { $0.repeats = $1 }
        stepper("Cool-down minutes", builder.cooldownMinutes, 0...60, step: 1) { $0.cooldownMinutes = $1 }
        rw_accessible_label(saveName, "Workout name")
        gtk_entry_set_placeholder_text(cast(saveName), "name, e.g. my-intervals")
        gtk_widget_set_hexpand(saveName, 1)
        let save = UI.button("Save", name: "Save workout") { [weak self] in self?.save() }
        let saveRow = UI.box(false, spacing: 6, [saveName, save])
        let box = UI.box(true, spacing: 6, [grid, saveRow, saveResult])
        return box
    }

    private func save() {
        let name = gtk_editable_get_text(OpaquePointer(saveName)).map { String(cString: $0) } ?? ""
        if let problem = AppData.save(name: name, spec: spec) {
            UI.set(saveResult, problem)
        } else {
            UI.set(saveResult, "Saved as \(name.lowercased())")
            reload()
        }
    }
}
