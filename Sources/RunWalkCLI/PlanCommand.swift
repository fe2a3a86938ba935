import ArgumentParser
import FoundationEssentials
import RunWalkCore
import RunWalkIO
import RunWalkStore

struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Training plans: list, show, follow (start, status, skip, repeat, stop), import and export.",
        discussion: "`runwalk run next` and `runwalk replay TRACK --workout next` run the next day of the plan being followed.",
        subcommands: [List.self, Show.self, Start.self, Status.self, Skip.self, Repeat.self, Stop.self, Import.self, Export.self],
        defaultSubcommand: Status.self)

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List built-in and imported plans.")
        func run() throws {
            let plans = try PlanCatalog.all()
            let width = plans.map(\.plan.name.count).max() ?? 0
            for (plan, builtIn) in plans {
                let pad = String(repeating: " ", count: width - plan.name.count)
                Terminal.out("\(plan.name)\(pad)  \(builtIn ? "built-in" : "imported")  \(plan.weeks.count) weeks, \(plan.daysPerWeek) days a week  \(plan.title)")
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a plan's weeks and days.")
        @Argument(help: "Plan name (see `runwalk plan list`).") var name: String
        func run() throws {
            Terminal.out(PlanText.show(try PlanCatalog.plan(named: name)).joined(separator: "\n"))
        }
    }

    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Start following a plan.")
        @Argument(help: "Plan name (see `runwalk plan list`).") var name: String
        @Option(name: .long, help: "Training days, e.g. mon,wed,sat (default: spread over the week by the plan's days a week).")
        var days: String?
        @Option(name: .long, help: "First day, YYYY-MM-DD (default: today).") var from: String?

        func run() throws {
            let plan = try PlanCatalog.plan(named: name)
            var weekdays = TrainingPlan.defaultDays(perWeek: plan.daysPerWeek)
            if let days {
                switch Weekday.parseList(days) {
                case .success(let list): weekdays = list
                case .failure(let error): throw UserFacingError.input("--days \(days): \(error)")
                }
            }
            let start: CalendarDay
            if let from {
                guard let day = CalendarDay(parsing: from) else { throw UserFacingError.input("--from \(from): expected a date as YYYY-MM-DD") }
                start = day
            } else {
                start = try Today.day()
            }
            let store = try PlanStore.open()
            let id = try PlanStore.call { try store.startEnrolment(planName: plan.name, planJSON: plan.json, startDay: start, weekdays: weekdays) }
            let progress = PlanProgress(plan: plan, enrolment: PlanEnrolment(id: id, planName: plan.name, startDay: start, weekdays: weekdays), log: [])
            let first = progress.scheduledDay.map { " on \($0.withWeekday)" } ?? ""
            Terminal.out("Following \(plan.title) (\(plan.weeks.count) weeks) on \(weekdays.map(\.rawValue).joined(separator: ", ")): "
                         + "week 1, day 1\(first); run it with `runwalk run next`")
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Where you are in the plan, what is next and when.")
        @Flag(name: .long, help: "Print the status as one JSON object (for scripts and the app's start page).") var json = false
        func run() throws {
            let today = try Today.day()
            guard let store = try PlanStore.openIfPresent(), let (_, progress) = try PlanStore.active(store) else {
                Terminal.out(json ? "{\"active\":false}" : "No plan is being followed. `runwalk plan list` shows the plans; `runwalk plan start NAME` starts one.")
                return
            }
            Terminal.out(json ? PlanText.statusJSON(progress, today: today) : PlanText.status(progress, today: today).joined(separator: "\n"))
        }
    }

    struct Skip: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Skip the next day of the plan.")
        func run() throws {
            let (store, stored, progress) = try PlanStore.requireActiveInExisting()
            guard let slot = progress.next else { throw UserFacingError.input("plan \(progress.plan.name) is finished: nothing to skip") }
            let today = try Today.day()
            try PlanStore.call { try store.appendPlanLog(enrolmentID: stored.enrolment.id, PlanLogEntry(kind: .skip, slot: slot, day: today)) }
            let after = PlanProgress(plan: progress.plan, enrolment: progress.enrolment, log: progress.log + [PlanLogEntry(kind: .skip, slot: slot, day: today)])
            Terminal.out("Skipped \(slot). \(PlanText.nextLine(after, today: today))")
        }
    }

    struct Repeat: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Do this week again (the week just finished, when the current one has not begun).")
        func run() throws {
            let (store, stored, progress) = try PlanStore.requireActiveInExisting()
            let week = progress.weekToRepeat
            let today = try Today.day()
            let entry = PlanLogEntry(kind: .repeatWeek, slot: TrainingPlan.Slot(week: week, day: 0), day: today)
            try PlanStore.call { try store.appendPlanLog(enrolmentID: stored.enrolment.id, entry) }
            let after = PlanProgress(plan: progress.plan, enrolment: progress.enrolment, log: progress.log + [entry])
            Terminal.out("Week \(week + 1) again. \(PlanText.nextLine(after, today: today))")
        }
    }

    struct Stop: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop following the plan (its history stays).")
        func run() throws {
            let (store, _, progress) = try PlanStore.requireActiveInExisting()
            try PlanStore.call { try store.stopEnrolment(on: try Today.day()) }
            Terminal.out("Stopped following \(progress.plan.title) after \(progress.done.count) of \(progress.totalDays) days.")
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a plan from a JSON file (see `runwalk plan export c25k` for the format).")
        @Argument(help: "Plan file (JSON).") var file: String
        @Flag(name: .long, help: "Replace an imported plan of the same name.") var replace = false
        func run() throws {
            let plan: TrainingPlan
            do { plan = try PlanLibraryFile.read(path: file) } catch let error as PlanFileError {
                throw UserFacingError.input(error.description)
            } catch let error as InputError {
                throw UserFacingError.input(error.description)
            }
            if TrainingPlan.builtIn(named: plan.name) != nil {
                throw UserFacingError.input("\(file): plan \"\(plan.name)\" is built in: give yours another name")
            }
            if !replace, try PlanCatalog.userPlans().contains(where: { $0.name == plan.name }) {
                throw UserFacingError.input("\(file): a plan named \"\(plan.name)\" exists: use --replace to replace it")
            }
            let library = PlanLibraryFile()
            do { try library.save(plan) } catch {
                throw UserFacingError.runtime("\(library.url(of: plan.name).path): cannot save: \(FileErrorText.reason(error))")
            }
            Terminal.warning("imported plan \(plan.name): \(plan.title), \(plan.weeks.count) weeks, \(plan.slots.count) days")
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write a plan as JSON.")
        @Argument(help: "Plan name.") var name: String
        @Option(name: .shortAndLong, help: "Output file (default: standard output).") var output: String?
        func run() throws {
            let json = try PlanCatalog.plan(named: name).json
            try ReportOutput.write(Array((json.hasSuffix("\n") ? json : json + "\n").utf8), to: output, newFileMode: 0o644)
        }
    }
}

