import RunWalkCore
import RunWalkHost
import RunWalkIO

/// Plans and progress as terminal text.
enum PlanText {
    /// `plan show`: every week and day with its length.
    static func show(_ plan: TrainingPlan) -> [String] {
        var lines = ["\(plan.title) (\(plan.name)): \(plan.weeks.count) weeks, \(plan.daysPerWeek) days a week"]
        for (w, week) in plan.weeks.enumerated() {
            lines.append("week \(w + 1)")
            for (d, day) in week.days.enumerated() {
                let length = plan.workout(at: TrainingPlan.Slot(week: w, day: d))?.plannedDuration.map { TimeText.clock($0.seconds) } ?? "by distance"
                lines.append("  day \(d + 1)  \(length)  \(day.workout)" + (day.note.map { "  (\($0))" } ?? ""))
            }
        }
        return lines
    }

    /// `plan status`: where the runner is, what is next and when, the weeks at a glance.
    static func status(_ progress: PlanProgress, today: CalendarDay) -> [String] {
        let plan = progress.plan
        let skipped = progress.cleared.subtracting(progress.done).count
        let percent = progress.totalDays > 0 ? progress.done.count * 100 / progress.totalDays : 0
        var lines = [
            "\(plan.title) (\(plan.name)), from \(progress.enrolment.startDay.withWeekday) on \(progress.enrolment.weekdays.map(\.rawValue).joined(separator: ", "))",
            "Done \(progress.done.count) of \(progress.totalDays) days (\(percent) %)" + (skipped > 0 ? ", \(skipped) skipped" : ""),
        ]
        lines.append(nextLine(progress, today: today))
        if let short = progress.shortAttempt {
            let ran = short.runFraction.map { "\(Int(($0 * 100).rounded(.down))) % of the run time" } ?? "part of it"
            lines.append("Last try: session \(short.sessionID.map(String.init) ?? "-") on \(short.day) ran \(ran): offered again")
        }
        lines.append("Weeks (x done, s skipped, > next, . to do):")
        let next = progress.next
        for (w, week) in plan.weeks.enumerated() {
            let marks = week.days.indices.map { d -> String in
                let slot = TrainingPlan.Slot(week: w, day: d)
                if progress.done.contains(slot) { return "x" }
                if progress.cleared.contains(slot) { return "s" }
                return slot == next ? ">" : "."
            }
            lines.append("  week \(w + 1)\(w + 1 < 10 && plan.weeks.count >= 10 ? " " : "")  \(marks.joined(separator: " "))")
        }
        return lines
    }

    /// `plan status --json`: one object, snake_case keys, weeks and days 1-based, dates `YYYY-MM-DD`.
    static func statusJSON(_ progress: PlanProgress, today: CalendarDay) -> String {
        let q = JSONValue.quoted
        var fields = [
            "\"active\":true", "\"plan\":\(q(progress.plan.name))", "\"title\":\(q(progress.plan.title))",
            "\"start\":\(q(progress.enrolment.startDay.description))",
            "\"days\":[\(progress.enrolment.weekdays.map { q($0.rawValue) }.joined(separator: ","))]",
            "\"done\":\(progress.done.count)", "\"skipped\":\(progress.cleared.subtracting(progress.done).count)",
            "\"total\":\(progress.totalDays)", "\"finished\":\(progress.finished)",
        ]
        if let slot = progress.next, let day = progress.plan.day(at: slot) {
            var next = ["\"week\":\(slot.week + 1)", "\"day\":\(slot.day + 1)", "\"workout\":\(q(day.workout))"]
            if let seconds = progress.plan.workout(at: slot)?.plannedDuration?.seconds { next.append("\"duration_s\":\(Int(seconds))") }
            if let due = progress.scheduledDay {
                next.append("\"due\":\(q(due.description))")
                next.append("\"overdue\":\(due < today)")
            }
            next.append("\"introduction\":\(q(progress.plan.introduction(for: slot)))")
            fields.append("\"next\":{\(next.joined(separator: ","))}")
        }
        if let short = progress.shortAttempt, let session = short.sessionID {
            fields.append("\"last_short\":{\"session\":\(session),\"on\":\(q(short.day.description)),"
                          + "\"run_fraction\":\(Double(Int((short.runFraction ?? 0) * 1000)) / 1000)}")
        }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// `Next: week 2, day 2 (31:00) on Wed 2026-11-11 (today): 5m warmup, …` or the plan finished.
    static func nextLine(_ progress: PlanProgress, today: CalendarDay) -> String {
        PlanNextLine.render(progress, today: today)
    }
}
