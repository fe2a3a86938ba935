/// Named workouts: a few built in, and the user's own, kept in a readable text file.
///
/// The file holds one workout per line, `name = spec`; `#` starts a comment:
/// ```
/// # my workouts
/// tempo = 10m warmup, 5x(3m run, 2m walk), 10m cooldown
/// ```
public struct WorkoutLibrary: Sendable, Equatable {
    /// A named workout and where it comes from.
    public struct Entry: Sendable, Equatable {
        public var name: String
        public var spec: String
        public var builtIn: Bool
    }

    /// Why a workouts file or a name could not be used; `line` and `column` are 1-based.
    /// A workouts file's mistake, where it is.
    public typealias FileError = ConfigFileError

    public static let builtIns: [Entry] = [
        ("galloway-30-30", "5m warmup, 10x(30s run, 30s walk), 5m cooldown"),
        ("galloway-1-1", "5m warmup, 10x(1m run, 1m walk), 5m cooldown"),
        ("galloway-3-1", "5m warmup, 6x(3m run, 1m walk), 5m cooldown"),
        ("c25k-w1", "5m warmup, 8x(60s run, 90s walk), 5m cooldown"),
        ("c25k-w2", "5m warmup, 6x(90s run, 2m walk), 5m cooldown"),
        ("c25k-w3", "5m warmup, 2x(90s run, 90s walk, 3m run, 3m walk), 5m cooldown"),
        ("c25k-w4", "5m warmup, 3m run, 90s walk, 5m run, 2m30s walk, 3m run, 90s walk, 5m run, 5m cooldown"),
        ("c25k-w5", "5m warmup, 3x(5m run, 3m walk), 5m cooldown"),
    ].map { Entry(name: $0.0, spec: $0.1, builtIn: true) }

    /// The user's own workouts, in file order.
    public private(set) var userEntries: [Entry]

    public init(userEntries: [Entry] = []) {
        self.userEntries = userEntries
    }

    /// Built-ins first, then the user's; a user workout of the same name hides the built-in.
    public var entries: [Entry] {
        Self.builtIns.filter { b in !userEntries.contains { $0.name == b.name } } + userEntries
    }

    /// The workout with this name, if any.
    public func entry(named name: String) -> Entry? {
        let key = name.lowercased()
        return userEntries.first { $0.name == key } ?? Self.builtIns.first { $0.name == key }
    }

    /// Adds or replaces a user workout after checking its name and spec.
    public mutating func add(name: String, spec: String) throws -> Entry {
        let key = name.lowercased()
        if let problem = Self.nameProblem(key) { throw FileError(line: 1, column: problem, message: "bad workout name \"\(UserText.printable(name))\": use up to \(Self.maximumNameLength) letters, digits, - and _") }
        do { _ = try Workout(parsing: spec) } catch {
            throw FileError(line: 1, column: error.column, message: "workout \"\(UserText.printable(name))\": \(error.description)")
        }
        let entry = Entry(name: key, spec: spec, builtIn: false)
        if let i = userEntries.firstIndex(where: { $0.name == key }) { userEntries[i] = entry } else { userEntries.append(entry) }
        return entry
    }

    /// Renames a user workout in place (its line keeps its place in the file).
    public mutating func rename(_ old: String, to new: String) throws(FileError) {
        let key = new.lowercased()
        if let problem = Self.nameProblem(key) { throw FileError(line: 1, column: problem, message: "bad workout name \"\(new)\": use up to \(Self.maximumNameLength) letters, digits, - and _") }
        guard let i = userEntries.firstIndex(where: { $0.name == old.lowercased() }) else {
            throw FileError(line: 1, column: 1, message: "no saved workout named \(old)")
        }
        if entry(named: key) != nil, key != old.lowercased() {
            throw FileError(line: 1, column: 1, message: "a workout named \(key) exists")
        }
        userEntries[i].name = key
    }

    /// Removes a user workout; returns false when there was none of that name.
    public mutating func remove(name: String) -> Bool {
        let before = userEntries.count
        userEntries.removeAll { $0.name == name.lowercased() }
        return userEntries.count != before
    }

    /// Reads the text format; every error names its line and column.
    public static func parse(_ text: String) throws(FileError) -> [Entry] {
        let read = parseLeniently(text)
        if let first = read.problems.first { throw first.error }
        return read.entries
    }

    /// A line of the file that could not be read, and the workout name on it when it has one.
    public struct BadLine: Sendable, Equatable {
        /// The name before `=`, lower-cased, when the line has one.
        public var name: String?
        /// What is wrong, where.
        public var error: FileError
    }

    /// Reads every good line and collects the bad ones, so one bad line breaks only the command
    /// that names its workout (and `workouts list`, which reports it), not every command.
    public static func parseLeniently(_ text: String) -> (entries: [Entry], problems: [BadLine]) {
        var entries: [Entry] = []
        var problems: [BadLine] = []
        for (offset, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let lineNumber = offset + 1
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty || trimmed.first == "#" { continue }
            guard let equals = line.firstIndex(of: "=") else {
                problems.append(BadLine(name: nil, error: FileError(
                    line: lineNumber, column: line.distance(from: line.startIndex, to: trimmed.startIndex) + 1,
                    message: "expected \"name = spec\"")))
                continue
            }
            let name = String(line[..<equals]).trimmingBlanks.lowercased()
            do throws(FileError) {
                let entry = try entry(line, equals: equals, name: name, lineNumber: lineNumber)
                if entries.contains(where: { $0.name == name }) {
                    throw FileError(line: lineNumber, column: 1, message: "workout \"\(UserText.printable(name))\" is defined twice")
                }
                entries.append(entry)
            } catch {
                problems.append(BadLine(name: name, error: error))
            }
        }
        return (entries, problems)
    }

    private static func entry(_ line: Substring, equals: Substring.Index, name: String, lineNumber: Int) throws(FileError) -> Entry {
        let specStart = line.index(after: equals)
        let spec = String(line[specStart...]).trimmingBlanks
        if let column = nameProblem(name) {
            throw FileError(line: lineNumber, column: column, message: "bad workout name \"\(UserText.printable(name))\": use up to \(Self.maximumNameLength) letters, digits, - and _")
        }
        let leading = line[specStart...].prefix { $0 == " " || $0 == "\t" }.count
        let specColumn = line.distance(from: line.startIndex, to: specStart) + leading
        do { _ = try Workout(parsing: spec) } catch {
            throw FileError(line: lineNumber, column: specColumn + error.column, message: error.cause)
        }
        return Entry(name: name, spec: spec, builtIn: false)
    }

    /// The user's workouts in the text format.
    public func serialised() -> String {
        "# RunWalk workouts: name = spec\n" + userEntries.map { "\($0.name) = \($0.spec)\n" }.joined()
    }

    /// The 1-based column of the first bad character of a name, nil when it is fine.
    /// The longest workout (and plan) name.
    public static let maximumNameLength = 64

    static func nameProblem(_ name: String) -> Int? {
        if name.isEmpty { return 1 }
        if name.count > maximumNameLength { return maximumNameLength + 1 }
        for (i, c) in name.enumerated() where !(c.isASCII && (c.isLetter || c.isNumber || c == "-" || c == "_")) {
            return i + 1
        }
        return nil
    }
}

extension String {
    var trimmingBlanks: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return String(s)
    }
}
