/// Plans as JSON, the format `runwalk plan import|export` reads and writes:
///
/// ```json
/// {
///   "name": "c25k",
///   "title": "Couch to 5K",
///   "days_per_week": 3,
///   "weeks": [
///     {"days": [{"workout": "5m warmup, 8x(60s run, 90s walk), 5m cooldown"}, …]},
///     …
///   ]
/// }
/// ```
/// Every field is checked; unknown fields are mistakes (a typo must not be ignored).
extension TrainingPlan {
    /// The longest plan title (a day's note may be five times as long).
    public static let maximumTitleLength = 200

    /// Reads a plan from JSON text; the first mistake is thrown naming plan, week, day, field and line.
    public init(json text: String) throws(PlanError) {
        let root: JSONValue
        do { root = try JSONValue.parse(text) } catch {
            throw PlanError(position: error.position, message: error.message)
        }
        try self.init(json: root)
    }

    /// Reads a plan from a parsed JSON value.
    public init(json root: JSONValue) throws(PlanError) {
        guard case .object(let members, _) = root else {
            throw PlanError(position: root.position, message: "expected a plan object {\"name\": …, \"weeks\": […]}, found \(root.kindName)")
        }
        let nameGuess: String? = { if case .string(let s, _)? = root["name"] { return s } else { return nil } }()
        func fail(_ value: JSONValue?, field: String?, week: Int? = nil, day: Int? = nil, specColumn: Int? = nil,
                  _ message: String) -> PlanError {
            PlanError(plan: nameGuess, week: week, day: day, field: field, position: (value ?? root).position,
                      specColumn: specColumn, message: message)
        }
        for member in members where !["name", "title", "days_per_week", "weeks"].contains(member.key) {
            throw fail(member.value, field: member.key, "unknown field (expected name, title, days_per_week, weeks)")
        }
        guard case .string(let name, _)? = root["name"] else {
            throw fail(root["name"], field: "name", root["name"] == nil ? "missing" : "expected a string, found \(root["name"]?.kindName ?? "")")
        }
        if let column = WorkoutLibrary.nameProblem(name) {
            throw fail(root["name"], field: "name", "bad plan name (character \(column)): use up to \(WorkoutLibrary.maximumNameLength) letters, digits, - and _")
        }
        var title = name
        if let value = root["title"] {
            guard case .string(let text, _) = value, !text.trimmingBlanks.isEmpty else {
                throw fail(value, field: "title", "expected a non-empty string, found \(value.kindName)")
            }
            guard text.count <= Self.maximumTitleLength else {
                throw fail(value, field: "title", "\(text.count) characters, more than \(Self.maximumTitleLength)")
            }
            title = text
        }
        guard let weeksValue = root["weeks"] else { throw fail(nil, field: "weeks", "missing") }
        guard case .array(let weekValues, _) = weeksValue, !weekValues.isEmpty else {
            throw fail(weeksValue, field: "weeks", "expected a non-empty array of weeks, found \(weeksValue.kindName)")
        }
        var weeks: [Week] = []
        for (w, weekValue) in weekValues.enumerated() {
            guard case .object(let weekMembers, _) = weekValue else {
                throw fail(weekValue, field: nil, week: w + 1, "expected a week object {\"days\": […]}, found \(weekValue.kindName)")
            }
            for member in weekMembers where member.key != "days" {
                throw fail(member.value, field: member.key, week: w + 1, "unknown field (expected days)")
            }
            guard let daysValue = weekValue["days"] else { throw fail(weekValue, field: "days", week: w + 1, "missing") }
            guard case .array(let dayValues, _) = daysValue, !dayValues.isEmpty else {
                throw fail(daysValue, field: "days", week: w + 1, "expected a non-empty array of days, found \(daysValue.kindName)")
            }
            var days: [Day] = []
            for (d, dayValue) in dayValues.enumerated() {
                guard case .object(let dayMembers, _) = dayValue else {
                    throw fail(dayValue, field: nil, week: w + 1, day: d + 1, "expected a day object {\"workout\": …}, found \(dayValue.kindName)")
                }
                for member in dayMembers where !["workout", "note"].contains(member.key) {
                    throw fail(member.value, field: member.key, week: w + 1, day: d + 1, "unknown field (expected workout, note)")
                }
                guard let workoutValue = dayValue["workout"] else {
                    throw fail(dayValue, field: "workout", week: w + 1, day: d + 1, "missing")
                }
                guard case .string(let spec, let specAt) = workoutValue else {
                    throw fail(workoutValue, field: "workout", week: w + 1, day: d + 1, "expected a workout spec string, found \(workoutValue.kindName)")
                }
                do { _ = try Self.parseWorkout(spec) } catch {
                    // The spec starts one column after its opening quote (exact unless it holds escapes).
                    let at = JSONPosition(line: specAt.line, column: specAt.column + error.column)
                    throw PlanError(plan: nameGuess, week: w + 1, day: d + 1, field: "workout", position: at,
                                    specColumn: error.column, message: error.cause)
                }
                var note: String?
                if let noteValue = dayValue["note"] {
                    guard case .string(let text, _) = noteValue else {
                        throw fail(noteValue, field: "note", week: w + 1, day: d + 1, "expected a string, found \(noteValue.kindName)")
                    }
                    guard text.count <= Self.maximumTitleLength * 5 else {
                        throw fail(noteValue, field: "note", week: w + 1, day: d + 1, "\(text.count) characters, more than \(Self.maximumTitleLength * 5)")
                    }
                    note = text
                }
                days.append(Day(workout: spec, note: note))
            }
            weeks.append(Week(days: days))
        }
        var daysPerWeek = weeks.map(\.days.count).max() ?? 1
        if let value = root["days_per_week"] {
            guard case .number(let n, _) = value, n == n.rounded(), (1...7).contains(n) else {
                throw fail(value, field: "days_per_week", "expected a whole number from 1 to 7")
            }
            daysPerWeek = Int(n)
        }
        if let w = weeks.firstIndex(where: { $0.days.count > daysPerWeek }) {
            throw fail(weekValues[w]["days"], field: "days", week: w + 1,
                       "\(weeks[w].days.count) days, more than days_per_week (\(daysPerWeek))")
        }
        self.init(name: name.lowercased(), title: title, daysPerWeek: daysPerWeek, weeks: weeks)
    }

    /// The plan as JSON text (two-space indent, one day per line), as `plan export` writes it.
    public var json: String {
        var out = "{\n"
        out += "  \"name\": \(JSONValue.quoted(name)),\n"
        out += "  \"title\": \(JSONValue.quoted(title)),\n"
        out += "  \"days_per_week\": \(daysPerWeek),\n"
        out += "  \"weeks\": [\n"
        for (w, week) in weeks.enumerated() {
            out += "    {\"days\": [\n"
            for (d, day) in week.days.enumerated() {
                var fields = "\"workout\": \(JSONValue.quoted(day.workout))"
                if let note = day.note { fields += ", \"note\": \(JSONValue.quoted(note))" }
                out += "      {\(fields)}\(d == week.days.count - 1 ? "" : ",")\n"
            }
            out += "    ]}\(w == weeks.count - 1 ? "" : ",")\n"
        }
        return out + "  ]\n}\n"
    }
}
