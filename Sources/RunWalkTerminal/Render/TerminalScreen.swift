import RunWalkCore
import RunWalkRuntime

/// What is drawn over the frame besides the status: nothing, the key help, or the stop question.
public enum TerminalOverlay: Sendable, Equatable {
    /// Only the status.
    case none
    /// The list of keys (`?`); any key closes it.
    case help
    /// "press q again to stop" after a first `q`.
    case confirmStop
}

/// The full-screen view of a session, drawn from a `SessionStatus` alone: pure, no I/O.
///
/// The frame has exactly `rows` lines, none wider than `columns`; the phase is in colour and in
/// words, so it reads without colour too.
public enum TerminalScreen {
    /// The frame as text lines, with ANSI SGR colour when `colour` is on; `nowPlaying` is the
    /// runner's music ("Title — Artist"), shown while a phase runs.
    public static func render(status: SessionStatus?, columns: Int, rows: Int, colour: Bool,
                              overlay: TerminalOverlay = .none, nowPlaying: String? = nil) -> [String] {
        lines(status: status, columns: columns, rows: rows, overlay: overlay, nowPlaying: nowPlaying).map { $0.encoded(colour: colour) }
    }

    /// The frame as styled lines.
    public static func lines(status: SessionStatus?, columns: Int, rows: Int, overlay: TerminalOverlay = .none,
                             nowPlaying: String? = nil) -> [ScreenLine] {
        var layout = status.map { layoutFor($0, columns: columns) } ?? starting()
        if let nowPlaying, !nowPlaying.isEmpty, let stage = status?.stage, stage == .running || stage == .paused {
            // The least important line: the first to go on a small screen.
            let text = ScreenText.shortened("♪ " + UserText.printable(nowPlaying), to: columns - 2)
            layout.body.append(.init(line: ScreenLine(text, .init(dim: true)), importance: 4, centred: true))
        }
        if overlay == .confirmStop {
            let text = columns >= 44 ? "Stop the workout? Press q again (any key: no)" : "Press q again to stop, any key: no"
            layout.footer.append(.init(line: ScreenLine(text, Palette.alert), importance: 0, fill: Palette.alert))
        }
        var frame = layout.fit(columns: columns, rows: rows)
        if overlay == .help { frame = HelpOverlay.draw(over: frame, columns: columns, rows: rows) }
        return frame
    }

    private static func starting() -> ScreenLayout {
        ScreenLayout(header: .init(line: ScreenLine("RUNWALK", Palette.waiting), importance: 0, fill: Palette.waiting),
                     body: [.init(line: ScreenLine("starting…"), importance: 0, centred: true)])
    }

    static func layoutFor(_ status: SessionStatus, columns: Int) -> ScreenLayout {
        switch status.stage {
        case .waitingForFix: return waiting(status, columns: columns)
        case .startCountdown: return countdown(status)
        case .running, .paused: return phase(status, columns: columns)
        case .completed, .stopped: return finished(status, columns: columns)
        }
    }

    private static func waiting(_ status: SessionStatus, columns: Int) -> ScreenLayout {
        var layout = ScreenLayout(header: .init(line: ScreenLine("WAITING FOR GPS", Palette.waiting), importance: 0, fill: Palette.waiting))
        let gpsStyle = status.gps.state == .fix ? Palette.good : Palette.warning
        if columns >= 44 {
            layout.body.append(.init(line: ScreenLine("waiting for GPS fix — press s to start now", .init(bold: true)), importance: 0, centred: true))
        } else {
            layout.body.append(.init(line: ScreenLine("waiting for GPS fix", .init(bold: true)), importance: 0, centred: true))
            layout.body.append(.init(line: ScreenLine("press s to start now", .init(bold: true)), importance: 0, centred: true))
        }
        layout.body.append(.init(line: ScreenLine(""), importance: 3))
        layout.body.append(.init(line: ScreenLine(status.gps.text, gpsStyle), importance: 0, centred: true))
        if let first = status.next ?? status.phase {
            layout.body.append(.init(line: ScreenLine("First: \(ScreenText.word(first.kind)) \(ScreenText.planned(first))"), importance: 1, centred: true))
        }
        layout.body.append(.init(line: ScreenLine(ScreenText.shortened(status.workout, to: columns - 2), .init(dim: true)), importance: 2, centred: true))
        layout.footer.append(keys(columns: columns, waiting: true))
        return layout
    }

    private static func countdown(_ status: SessionStatus) -> ScreenLayout {
        var layout = ScreenLayout(header: .init(line: ScreenLine("GET READY", Palette.waiting), importance: 0, fill: Palette.waiting))
        let seconds = max(0, status.startCountdownSeconds ?? 0)
        layout.big = (String(seconds), Palette.foreground(status.next?.kind ?? .warmup))
        layout.underBig.append(.init(line: ScreenLine("starting in \(seconds)"), importance: 0, centred: true))
        if let first = status.next ?? status.phase {
            layout.body.append(.init(line: ScreenLine("First: \(ScreenText.word(first.kind)) \(ScreenText.planned(first))"), importance: 1, centred: true))
        }
        layout.body.append(.init(line: ScreenLine(status.gps.text, status.gps.state == .fix ? Palette.good : Palette.warning),
                                 importance: 1, centred: true))
        return layout
    }

    private static func phase(_ status: SessionStatus, columns: Int) -> ScreenLayout {
        let kind = status.phase?.kind ?? .run
        let position = status.phase.map { "\($0.index + 1)/\(status.phaseCount)" } ?? ""
        let title = "\(ScreenText.name(kind)) \(position)"
        let pausedWord = status.autoPaused ? "AUTO-PAUSED" : "PAUSED"
        let header: ScreenLayout.Item = status.paused
            ? .init(line: ScreenLine("\(pausedWord) · \(title)", Palette.paused), importance: 0, fill: Palette.paused)
            : .init(line: ScreenLine(title, Palette.header(kind)), importance: 0, fill: Palette.header(kind))
        var layout = ScreenLayout(header: header)

        let digitStyle = status.paused ? TextStyle(foreground: 33, dim: false) : Palette.foreground(kind)
        if let metres = status.phaseRemainingMetres, status.phaseRemainingSeconds == nil {
            layout.big = (String(Int(max(0, metres).rounded(.up))), digitStyle)
            layout.underBig.append(.init(line: ScreenLine("metres left in \(ScreenText.word(kind))"), importance: 0, centred: true))
        } else if status.phaseRemainingSeconds == nil, status.phase?.plannedSeconds == nil {
            // A phase that ends on the heart rate: its time so far (issue 33).
            layout.big = (ScreenText.elapsed(status.phaseElapsedSeconds), digitStyle)
            layout.underBig.append(.init(line: ScreenLine("in \(ScreenText.word(kind)), until the heart rate", .init(dim: true)),
                                         importance: 3, centred: true))
        } else {
            layout.big = (ScreenText.countdown(status.phaseRemainingSeconds ?? 0), digitStyle)
            layout.underBig.append(.init(line: ScreenLine("left in \(ScreenText.word(kind))", .init(dim: true)), importance: 3, centred: true))
        }
        if status.paused {
            let text = status.autoPaused ? "AUTO-PAUSED — moving resumes" : "PAUSED — space to resume"
            layout.underBig.append(.init(line: ScreenLine(text, Palette.paused), importance: 0, centred: true))
        }

        let phaseSuffix: String
        if let planned = status.phase?.plannedSeconds {
            phaseSuffix = " \(ScreenText.elapsed(status.phaseElapsedSeconds))/\(ScreenText.countdown(planned))"
        } else {
            phaseSuffix = " \(Int((min(1, max(0, status.phaseProgress)) * 100).rounded(.down)))%"
        }
        layout.body.append(progress("Phase", status.phaseProgress, phaseSuffix, style: Palette.foreground(kind), columns: columns, importance: 1))
        var workoutSuffix = " \(ScreenText.elapsed(status.workoutElapsedSeconds))"
        if let left = status.workoutRemainingSeconds { workoutSuffix += "/" + ScreenText.countdown(status.workoutElapsedSeconds + left) }
        layout.body.append(progress("Total", status.workoutProgress, workoutSuffix, style: .plain, columns: columns, importance: 2))

        var nextLine = ScreenLine("Next: finish")
        if let next = status.next {
            nextLine = ScreenLine([("Next: ", .plain), ("\(ScreenText.word(next.kind)) \(ScreenText.planned(next))", Palette.foreground(next.kind))])
        }
        layout.body.append(.init(line: nextLine, importance: 1))
        layout.body.append(.init(line: ScreenLine("Distance \(ScreenText.distance(status.distanceMetres, units: status.units))", .init(bold: true)), importance: 1))
        let unit = ScreenText.paceUnit(status.units)
        let current = status.gps.state == .lost ? "--:--" : ScreenText.pace(status.currentPaceSecondsPerKm, units: status.units)
        let average = ScreenText.pace(status.averagePaceSecondsPerKm, units: status.units)
        layout.body.append(.init(line: ScreenLine("Pace \(current) \(unit)   Avg \(average) \(unit)"), importance: 1))
        if let target = status.target { layout.body.append(targetLine(target, status.targetState)) }
        if let bpm = status.heartRateBPM {
            let zone = status.heartRateZone.map { "  zone \($0)" } ?? ""
            layout.body.append(.init(line: ScreenLine("Heart rate \(bpm) bpm\(zone)", .init(bold: true)), importance: 1))
        }
        let gpsStyle: TextStyle = switch status.gps.state {
        case .fix: Palette.good
        case .noFix: Palette.warning
        case .lost: Palette.alert
        }
        layout.body.append(.init(line: ScreenLine(status.gps.text, gpsStyle), importance: status.gps.state == .fix ? 2 : 0))
        layout.footer.append(keys(columns: columns, waiting: false))
        return layout
    }

    private static func finished(_ status: SessionStatus, columns: Int) -> ScreenLayout {
        let done = status.stage == .completed
        let style = done ? Palette.header(.walk) : Palette.paused
        var layout = ScreenLayout(header: .init(line: ScreenLine(done ? "WORKOUT COMPLETE" : "WORKOUT STOPPED", style), importance: 0, fill: style))
        layout.big = (ScreenText.elapsed(status.workoutElapsedSeconds), TextStyle(foreground: 32, bold: true))
        layout.underBig.append(.init(line: ScreenLine("workout time", .init(dim: true)), importance: 2, centred: true))
        layout.body.append(.init(line: ScreenLine("Distance \(ScreenText.distance(status.distanceMetres, units: status.units))", .init(bold: true)), importance: 0, centred: true))
        let unit = ScreenText.paceUnit(status.units)
        layout.body.append(.init(line: ScreenLine("Avg pace \(ScreenText.pace(status.averagePaceSecondsPerKm, units: status.units)) \(unit)"), importance: 0, centred: true))
        if status.elapsedSeconds > status.workoutElapsedSeconds + 0.5 {
            layout.body.append(.init(line: ScreenLine("Elapsed with pauses \(ScreenText.elapsed(status.elapsedSeconds))"), importance: 2, centred: true))
        }
        layout.body.append(.init(line: ScreenLine(ScreenText.shortened(status.workout, to: columns - 2), .init(dim: true)), importance: 3, centred: true))
        return layout
    }

    /// "Target 6:00-6:30/km · below": the band, and where the runner is (in words and colour).
    static func targetLine(_ target: PhaseTargetBand, _ state: TargetState?) -> ScreenLayout.Item {
        let word: String, style: TextStyle
        switch state {
        case .in?: (word, style) = ("in", Palette.good)
        case .below?: (word, style) = (target.heartRateMin != nil ? "below" : "below (slower)", Palette.warning)
        case .above?: (word, style) = (target.heartRateMin != nil ? "above" : "above (faster)", Palette.warning)
        case nil: (word, style) = ("--", .init(dim: true))
        }
        return .init(line: ScreenLine([("Target \(target.text) · ", .plain), (word, style)]), importance: 1)
    }

    private static func progress(_ label: String, _ fraction: Double, _ suffix: String, style: TextStyle, columns: Int, importance: Int) -> ScreenLayout.Item {
        // One margin column on each side, the label and its space, the suffix.
        // Bars stop growing at 72 columns: on a wide screen they sit in the middle with the other lines.
        let barWidth = max(3, min(columns, 72) - 2 - label.count - 1 - suffix.count)
        let bar = ScreenText.bar(fraction, width: barWidth)
        return .init(line: ScreenLine([(label + " ", .plain), (bar.done, style), (bar.left, .init(dim: true)), (suffix, .plain)]), importance: importance)
    }

    private static func keys(columns: Int, waiting: Bool) -> ScreenLayout.Item {
        let text: String
        if waiting {
            text = columns >= 44 ? "s start now · q stop · ? help" : "s:start q:stop ?:help"
        } else if columns >= 60 {
            text = "space pause · n skip · b restart · q stop · ? help"
        } else {
            text = "spc:pause n:skip b:restart q:stop ?:help"
        }
        return .init(line: ScreenLine(text, .init(dim: true)), importance: 4, centred: true)
    }
}
