import FoundationEssentials
import RunWalkCore
import RunWalkIO
import RunWalkReport
import RunWalkStore

/// What `history --calendar` and the history page read from the store.
enum HistoryData {
    /// Closed sessions by day, with the active plan's remaining days laid on its schedule from today.
    static func calendar(store: RunWalkStore, today: CalendarDay) throws -> TrainingCalendar {
        let sessions = try PlanStore.call { try store.sessions() }.filter { !$0.state.isRecording }
        var calendar = TrainingCalendar(runs: sessions.map {
            TrainingCalendar.Run(day: CalendarDay($0.date), distanceMetres: $0.distanceMetres ?? 0, durationSeconds: $0.durationSeconds ?? 0)
        })
        if let (_, progress) = try PlanStore.active(store) {
            calendar.due = Set(progress.projected(today: today, limit: 60).map(\.day))
        }
        return calendar
    }

    /// Everything the history page shows.
    static func pageInput(store: RunWalkStore, today: CalendarDay, units: Units) throws -> HistoryPageInput {
        let labels = try PlanStore.call { try store.sessionLabels() }
        let planDays = try PlanStore.call { try store.planDaysBySession() }
        let titles = Dictionary(try PlanCatalog.all().map { ($0.plan.name, $0.plan.title) }, uniquingKeysWith: { a, _ in a })
        let sessions = try PlanStore.call { try store.sessions() }.map { info in
            let planDay = planDays[info.id].map { day in
                "\(titles[day.plan] ?? day.plan), \(day.slot)" + (day.kind == .short ? " (cut short)" : "")
            }
            return HistoryPageInput.Session(
                id: info.id, date: info.date, workout: info.workout, name: labels[info.id]?.name, note: labels[info.id]?.note,
                distanceMetres: info.distanceMetres, durationSeconds: info.durationSeconds,
                paceSecondsPerKm: info.averagePaceSecondsPerKm, state: info.state, planDay: planDay)
        }
        let records = try PlanStore.call { try History(store: store).records() }
        var list: [HistoryPageInput.Record] = []
        func add(_ record: History.Record?, value: (History.Record) -> String, detail: (History.Record) -> String) {
            guard let record else { return }
            list.append(.init(name: record.name, value: value(record), detail: detail(record), sessionID: record.sessionID, date: record.date))
        }
        let time: (History.Record) -> String = { $0.seconds.map { TimeText.clock($0) } ?? "-" }
        add(records.fastest1km, value: time, detail: { _ in "" })
        add(records.fastest5km, value: time, detail: { _ in "" })
        add(records.longestRun, value: { SummaryText.distance($0.metres ?? 0, units) },
            detail: { r in r.seconds.map { "in \(TimeText.clock($0))" } ?? "" })
        add(records.longestRunInterval, value: time,
            detail: { r in (r.metres.map { SummaryText.distance($0, units) } ?? "") + " without a walk" })
        var planLine: String?
        if let (_, progress) = try PlanStore.active(store) {
            planLine = "\(progress.plan.title): \(progress.done.count) of \(progress.totalDays) days done. "
                + PlanText.nextLine(progress, today: today)
        }
        return HistoryPageInput(sessions: sessions, records: list, calendar: try calendar(store: store, today: today),
                                today: today, planLine: planLine, units: units)
    }
}

/// `history --format html [-o FILE] [--reports]`.
enum HistoryPageOutput {
    static func write(to path: String?, reports: Bool) throws {
        let store = try StoreAccess.openExisting()
        let units = try WorkoutStore.call { try SettingsFile().load() }.units ?? .metric
        let input = try HistoryData.pageInput(store: store, today: try Today.day(), units: units)
        try ReportOutput.write(Array(HistoryPage.render(input).utf8), to: path)
        guard reports, let path else { return }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        var written = 0
        for session in input.sessions where !session.state.isRecording {
            let stored = try PlanStore.call { try store.loadSession(.id(session.id)) }
            let html = HTMLReport.render(RecordedSession(summary: stored.summary, track: stored.trackPoints, heartRate: stored.heartRate))
            try ReportOutput.write(Array(html.utf8), to: folder.appendingPathComponent(HistoryPageInput.reportFileName(session.id)).path)
            written += 1
        }
        Terminal.warning("runwalk: wrote \(path) and \(written) session report\(written == 1 ? "" : "s") beside it")
    }
}
