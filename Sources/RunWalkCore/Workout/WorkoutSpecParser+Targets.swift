/// Targets and conditions after a phase: `@ 6:00-6:30/km`, `@ 5:30/km`, `@ 10:00/mi`,
/// `@ hr 140-150`; `until hr 150`, `until hr below 110`, bounded by `min 30s` and `max 5m`.
extension WorkoutSpecParser {
    /// Heart rates a band or threshold may name; outside them it is a typo.
    static let heartRateRange = 30...250
    /// Paces a band may name, seconds per kilometre (2:00/km to 30:00/km).
    static let paceRange = 120.0...1800.0

    /// The `until hr …` after a phase word: the phase ends on the heart rate.
    mutating func parseCondition(_ kind: PhaseKind, kindToken: Token) throws(WorkoutSpecError) -> PlannedPhase {
        guard let untilToken = current else { throw WorkoutSpecError(.empty, column: endColumn) }
        position += 1
        guard let hr = current, hr.kind == .word, hr.text.lowercased() == "hr" else {
            throw conditionError(current ?? untilToken, "expected \"hr\" after \"until\"")
        }
        position += 1
        var direction = HeartRateCondition.impliedDirection(for: kind)
        var explicit = false
        if let word = current, word.kind == .word, ["above", "below"].contains(word.text.lowercased()) {
            direction = word.text.lowercased() == "above" ? .rising : .falling
            explicit = true
            position += 1
        }
        guard let number = current, number.kind == .quantity else {
            throw conditionError(current ?? hr, "expected a heart rate in beats per minute after \"hr\"")
        }
        position += 1
        let bpm = try Self.heartRate(number.text, token: number)
        let condition = HeartRateCondition(thresholdBpm: bpm, direction: direction, explicit: explicit)
        return PlannedPhase(kind, .duration(HeartRateCondition.unboundedLength), until: condition)
    }

    /// What follows a phase: `@ band`, and `min`/`max` bounds of an `until` phase, in any order.
    mutating func parseTargets(_ phase: PlannedPhase, kindToken: Token) throws(WorkoutSpecError) -> PlannedPhase {
        var phase = phase
        while let token = current {
            if token.kind == .at {
                position += 1
                if phase.band != nil {
                    throw WorkoutSpecError(.badTarget("@", detail: "a phase takes one target"), column: token.column)
                }
                phase.band = try parseBand(after: token)
            } else if token.kind == .word, ["min", "max"].contains(token.text.lowercased()) {
                position += 1
                guard var condition = phase.until else {
                    throw WorkoutSpecError(.boundWithoutCondition(token.text), column: token.column, length: token.text.count)
                }
                guard let value = current, value.kind == .quantity else {
                    throw conditionError(current ?? token, "expected a duration after \"\(token.text)\"")
                }
                position += 1
                guard case .duration(let length) = try Self.quantity(value) else {
                    throw conditionError(value, "\"\(token.text)\" takes a duration, not a distance")
                }
                if token.text.lowercased() == "min" { condition.minimum = length } else { condition.maximum = length }
                if let minimum = condition.minimum, let maximum = condition.maximum, minimum > maximum {
                    throw conditionError(value, "min is longer than max")
                }
                phase.until = condition
                phase.target = .duration(condition.maximum ?? HeartRateCondition.unboundedLength)
            } else {
                break
            }
        }
        return phase
    }

    private mutating func parseBand(after at: Token) throws(WorkoutSpecError) -> TargetBand {
        var isHeartRate = false
        if let word = current, word.kind == .word, word.text.lowercased() == "hr" {
            isHeartRate = true
            position += 1
        }
        guard let token = current, token.kind == .band || token.kind == .quantity else {
            let next = current
            throw WorkoutSpecError(.badTarget(next?.text ?? "@", detail: isHeartRate
                                                  ? "expected a heart rate or a range such as 140-150"
                                                  : "expected a pace such as 6:00-6:30/km or 10:00/mi"),
                                   column: next?.column ?? endColumn, length: next?.text.count ?? 1)
        }
        position += 1
        return isHeartRate ? try Self.heartRateBand(token) : try Self.paceBand(token)
    }

    static func heartRateBand(_ token: Token) throws(WorkoutSpecError) -> TargetBand {
        let parts = token.text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { throw bandError(token, "use a heart rate (145) or a range (140-150)") }
        var values: [Int] = []
        for part in parts { values.append(try heartRate(String(part), token: token)) }
        if values.count == 1 {
            return .heartRate(low: values[0] - TargetBand.heartRateTolerance, high: values[0] + TargetBand.heartRateTolerance)
        }
        return .heartRate(low: min(values[0], values[1]), high: max(values[0], values[1]))
    }

    static func paceBand(_ token: Token) throws(WorkoutSpecError) -> TargetBand {
        let pieces = token.text.split(separator: "/", omittingEmptySubsequences: false)
        guard pieces.count == 2 else { throw bandError(token, "a pace needs its unit: /km or /mi") }
        let unit: PaceUnit
        switch pieces[1].lowercased() {
        case "km", "k": unit = .km
        case "mi", "mile": unit = .mi
        default: throw bandError(token, "unknown pace unit \"/\(pieces[1])\": use /km or /mi")
        }
        let ends = pieces[0].split(separator: "-", omittingEmptySubsequences: false)
        guard ends.count == 1 || ends.count == 2 else { throw bandError(token, "use a pace (5:30/km) or a range (6:00-6:30/km)") }
        var perUnit: [Double] = []
        for end in ends {
            let clock = end.split(separator: ":", omittingEmptySubsequences: false)
            guard clock.count == 2, clock[1].count == 2, let m = Int(clock[0]), let s = Int(clock[1]),
                  clock.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }), s < 60 else {
                throw bandError(token, "a pace is minutes:seconds, such as 6:00")
            }
            perUnit.append(Double(m * 60 + s))
        }
        // The tolerance in the written unit, before converting: the band's text reads back exactly.
        if perUnit.count == 1 {
            perUnit = [perUnit[0] - TargetBand.paceTolerancePerUnit, perUnit[0] + TargetBand.paceTolerancePerUnit]
        }
        let perKm = perUnit.map { $0 * 1000 / unit.metres }
        let fastest = min(perKm[0], perKm[1]), slowest = max(perKm[0], perKm[1])
        guard paceRange.contains(fastest), paceRange.contains(slowest) else {
            throw bandError(token, "paces must lie between 2:00 and 30:00 per km")
        }
        return .pace(fastestSecondsPerKm: fastest, slowestSecondsPerKm: slowest, unit: unit)
    }

    static func heartRate(_ text: String, token: Token) throws(WorkoutSpecError) -> Int {
        guard !text.isEmpty, text.allSatisfy(\.isASCIIDigit), let bpm = Int(text), heartRateRange.contains(bpm) else {
            throw WorkoutSpecError(.badTarget(token.text, detail: "a heart rate is a whole number of beats per minute from 30 to 250"),
                                   column: token.column, length: token.text.count)
        }
        return bpm
    }

    /// True when the next token must be a band's text: right after "@", or after "@ hr".
    static func bandFollows(_ tokens: [Token]) -> Bool {
        guard let last = tokens.last else { return false }
        if last.kind == .at { return true }
        return last.kind == .word && last.text.lowercased() == "hr" && tokens.count >= 2 && tokens[tokens.count - 2].kind == .at
    }

    private static func bandError(_ token: Token, _ detail: String) -> WorkoutSpecError {
        WorkoutSpecError(.badTarget(token.text, detail: detail), column: token.column, length: token.text.count)
    }

    private func conditionError(_ token: Token, _ detail: String) -> WorkoutSpecError {
        WorkoutSpecError(.badCondition(token.text, detail: detail), column: token.column, length: token.text.count)
    }
}
