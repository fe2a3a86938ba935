import RunWalkCore

/// Collects problems found in input, reporting each cause once with its first position and
/// a count at the end, so a log full of one fault does not flood the terminal.
public struct DiagnosticLog: Sendable {
    /// One cause in one file: where it was first seen and how often.
    public struct Entry: Sendable, Equatable {
        public var path: String
        public var firstLine: Int
        public var problem: NMEASentence.Problem
        public var count: Int
    }

    /// Causes in the order first seen.
    public private(set) var entries: [Entry] = []
    private let sink: @Sendable (String) -> Void

    /// A log that writes each cause's first occurrence to `sink` (standard error in the CLI).
    public init(sink: @escaping @Sendable (String) -> Void = { _ in }) {
        self.sink = sink
    }

    /// Records a problem at `path`:`line`; only a cause's first occurrence reaches the sink.
    public mutating func report(path: String, line: Int, problem: NMEASentence.Problem) {
        if let i = entries.firstIndex(where: { $0.path == path && $0.problem == problem }) {
            entries[i].count += 1
            return
        }
        entries.append(Entry(path: path, firstLine: line, problem: problem, count: 1))
        sink("warning: \(UserText.path(path)):\(line): \(problem.rawValue) (further lines with this fault are counted, not shown)")
    }

    /// Passes a finished warning line (a track file's problem with its count) to the sink as it is.
    public func say(_ line: String) {
        sink(line)
    }

    /// One line per cause that occurred more than once.
    public func closingLines() -> [String] {
        entries.filter { $0.count > 1 }.map {
            "warning: \(UserText.path($0.path)): \($0.count) lines with \($0.problem.rawValue) (first at line \($0.firstLine))"
        }
    }
}
