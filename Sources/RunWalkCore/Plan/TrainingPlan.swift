/// A training plan: workouts over weeks, a few days a week, followed in order
/// (`runwalk plan start c25k`), e.g. couch-to-5K's nine weeks of three days.
public struct TrainingPlan: Sendable, Equatable {
    /// One day's workout.
    public struct Day: Sendable, Equatable {
        /// A workout spec (or a built-in workout's name).
        public var workout: String
        /// A word for the runner, shown with the day (optional).
        public var note: String?

        public init(workout: String, note: String? = nil) {
            self.workout = workout
            self.note = note
        }
    }

    /// One week's days, in order.
    public struct Week: Sendable, Equatable {
        /// The days, in order.
        public var days: [Day]
        public init(days: [Day]) { self.days = days }
    }

    /// Where a day is in the plan: 0-based week and day.
    public struct Slot: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// 0-based week.
        public var week: Int
        /// 0-based day in the week.
        public var day: Int
        public init(week: Int, day: Int) {
            self.week = week
            self.day = day
        }
        public static func < (a: Slot, b: Slot) -> Bool { (a.week, a.day) < (b.week, b.day) }
        /// `week 3, day 2` (1-based, as a runner counts).
        public var description: String { "week \(week + 1), day \(day + 1)" }
    }

    /// The key commands use: letters, digits, - and _ (lower case).
    public var name: String
    /// What a runner calls it: "Couch to 5K".
    public var title: String
    /// How many days a week the plan expects (the default schedule spreads them over the week).
    public var daysPerWeek: Int
    /// The weeks, in order.
    public var weeks: [Week]

    public init(name: String, title: String, daysPerWeek: Int, weeks: [Week]) {
        self.name = name
        self.title = title
        self.daysPerWeek = daysPerWeek
        self.weeks = weeks
    }

    /// Every day of the plan in order.
    public var slots: [Slot] {
        weeks.enumerated().flatMap { w, week in week.days.indices.map { Slot(week: w, day: $0) } }
    }

    /// The day at `slot`, if the plan has it.
    public func day(at slot: Slot) -> Day? {
        guard weeks.indices.contains(slot.week), weeks[slot.week].days.indices.contains(slot.day) else { return nil }
        return weeks[slot.week].days[slot.day]
    }

    /// The workout of `slot`, parsed (plans are validated when read, so this fails only for a bad slot).
    public func workout(at slot: Slot) -> Workout? {
        guard let day = day(at: slot) else { return nil }
        return try? Self.parseWorkout(day.workout)
    }

    /// What the first cue says: "Week 3, day 2 of couch to 5K." (German: "Woche 3, Tag 2 von Couch to 5K.").
    public func introduction(for slot: Slot, language: Language = .en) -> String {
        switch language {
        case .en: return "Week \(slot.week + 1), day \(slot.day + 1) of \(spokenTitle)."
        // German keeps the title as written: nouns and names stay capitalised.
        case .de: return "Woche \(slot.week + 1), Tag \(slot.day + 1) von \(title)."
        }
    }

    /// The title as spoken: "Couch to 5K" reads "couch to 5K" mid-sentence.
    var spokenTitle: String {
        guard let first = title.first, title.dropFirst().first?.isLowercase ?? true else { return title }
        return first.lowercased() + title.dropFirst()
    }

    /// A spec, or the name of a built-in workout.
    static func parseWorkout(_ text: String) throws(WorkoutSpecError) -> Workout {
        if let entry = WorkoutLibrary.builtIns.first(where: { $0.name == text.lowercased() }) {
            return try Workout(parsing: entry.spec)
        }
        return try Workout(parsing: text)
    }

    /// The default training days for a number of days a week: spread out, rest days between.
    public static func defaultDays(perWeek count: Int) -> [Weekday] {
        switch count {
        case ...1: return [.sat]
        case 2: return [.tue, .sat]
        case 3: return [.mon, .wed, .fri]
        case 4: return [.mon, .tue, .thu, .sat]
        case 5: return [.mon, .tue, .wed, .fri, .sat]
        case 6: return [.mon, .tue, .wed, .thu, .fri, .sat]
        default: return Weekday.allCases
        }
    }
}

/// A plan file's mistake: which plan, week, day and field, where in the file, and (for a
/// bad workout spec) the column in the spec.
public struct PlanError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The plan's name, when the file gave one.
    public var plan: String?
    /// 1-based, when the mistake is inside a week.
    public var week: Int?
    /// 1-based, when the mistake is inside a day.
    public var day: Int?
    /// The JSON field at fault.
    public var field: String?
    /// Where in the file (nil for plans not read from a file).
    public var position: JSONPosition?
    /// The 1-based column in the workout spec, for a bad spec.
    public var specColumn: Int?
    /// What is wrong.
    public var message: String

    public init(plan: String? = nil, week: Int? = nil, day: Int? = nil, field: String? = nil,
                position: JSONPosition? = nil, specColumn: Int? = nil, message: String) {
        self.plan = plan
        self.week = week
        self.day = day
        self.field = field
        self.position = position
        self.specColumn = specColumn
        self.message = message
    }

    /// `line 14, column 22: plan "c25k", week 2, day 3, field "workout": spec column 5: unknown phase "jgo"`.
    public var description: String {
        var parts: [String] = []
        if let plan { parts.append("plan \"\(plan)\"") }
        if let week { parts.append("week \(week)") }
        if let day { parts.append("day \(day)") }
        if let field { parts.append("field \"\(field)\"") }
        let place = parts.joined(separator: ", ")
        let what = specColumn.map { "spec column \($0): \(message)" } ?? message
        let located = place.isEmpty ? what : "\(place): \(what)"
        return position.map { "line \($0.line), column \($0.column): \(located)" } ?? located
    }
}
