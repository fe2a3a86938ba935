/// The plans RunWalk ships: couch-to-5K, a Galloway-style beginner 5K and a 10K run/walk plan.
extension TrainingPlan {
    /// Every built-in plan, in the order `plan list` shows them.
    public static let builtIns: [TrainingPlan] = [couchTo5K, galloway5K, runWalk10K]

    /// The built-in plan of this name, if any.
    public static func builtIn(named name: String) -> TrainingPlan? {
        builtIns.first { $0.name == name.lowercased() }
    }

    private static func easy(_ middle: String) -> String { "5m warmup, \(middle), 5m cooldown" }

    private static func week(_ specs: String...) -> Week {
        Week(days: specs.map { Day(workout: easy($0)) })
    }

    private static func week3(_ spec: String) -> Week { week(spec, spec, spec) }

    /// The classic nine-week couch-to-5K: three days a week, from 60-second runs to 30 minutes.
    public static let couchTo5K = TrainingPlan(name: "c25k", title: "Couch to 5K", daysPerWeek: 3, weeks: [
        week3("8x(60s run, 90s walk)"),
        week3("6x(90s run, 2m walk)"),
        week3("2x(90s run, 90s walk, 3m run, 3m walk)"),
        week3("3m run, 90s walk, 5m run, 2m30s walk, 3m run, 90s walk, 5m run"),
        week("3x(5m run, 3m walk)", "8m run, 5m walk, 8m run", "20m run"),
        week("5m run, 3m walk, 8m run, 3m walk, 5m run", "10m run, 3m walk, 10m run", "22m run"),
        week3("25m run"),
        week3("28m run"),
        week3("30m run"),
    ])

    /// Eight weeks of run-walk-run in Galloway's manner: short runs, walk breaks from the
    /// start, the ratio growing week by week, a longer session at the weekend; the last day
    /// is 5 km by distance with walk breaks.
    public static let galloway5K = TrainingPlan(name: "galloway-5k", title: "Galloway beginner 5K", daysPerWeek: 3, weeks: [
        week("10x(30s run, 60s walk)", "10x(30s run, 60s walk)", "12x(30s run, 60s walk)"),
        week("12x(30s run, 30s walk)", "12x(30s run, 30s walk)", "15x(30s run, 30s walk)"),
        week("10x(1m run, 1m walk)", "10x(1m run, 1m walk)", "12x(1m run, 1m walk)"),
        week("8x(90s run, 1m walk)", "8x(90s run, 1m walk)", "10x(90s run, 1m walk)"),
        week("7x(2m run, 1m walk)", "7x(2m run, 1m walk)", "9x(2m run, 1m walk)"),
        week("5x(3m run, 1m walk)", "5x(3m run, 1m walk)", "7x(3m run, 1m walk)"),
        week("4x(4m run, 1m walk)", "4x(4m run, 1m walk)", "6x(4m run, 1m walk)"),
        week("6x(3m run, 1m walk)", "4x(4m run, 1m walk)", "10x(400m run, 100m walk)"),
    ])

    /// Ten weeks from 3:1 to 6:1 run/walk, the weekend session growing to about 80 minutes;
    /// the last day is 10 km by distance with a short walk each kilometre.
    public static let runWalk10K = TrainingPlan(name: "runwalk-10k", title: "10K run/walk", daysPerWeek: 3, weeks: [
        week("6x(3m run, 1m walk)", "6x(3m run, 1m walk)", "8x(3m run, 1m walk)"),
        week("7x(3m run, 1m walk)", "7x(3m run, 1m walk)", "9x(3m run, 1m walk)"),
        week("6x(4m run, 1m walk)", "6x(4m run, 1m walk)", "8x(4m run, 1m walk)"),
        week("7x(4m run, 1m walk)", "7x(4m run, 1m walk)", "9x(4m run, 1m walk)"),
        week("6x(5m run, 1m walk)", "6x(5m run, 1m walk)", "8x(5m run, 1m walk)"),
        week("6x(5m run, 1m walk)", "7x(5m run, 1m walk)", "10x(5m run, 1m walk)"),
        week("7x(5m run, 1m walk)", "7x(5m run, 1m walk)", "11x(5m run, 1m walk)"),
        week("6x(6m run, 1m walk)", "6x(6m run, 1m walk)", "10x(6m run, 1m walk)"),
        week("7x(6m run, 1m walk)", "7x(6m run, 1m walk)", "11x(6m run, 1m walk)"),
        week("5x(5m run, 1m walk)", "4x(5m run, 1m walk)", "10x(900m run, 100m walk)"),
    ])
}
