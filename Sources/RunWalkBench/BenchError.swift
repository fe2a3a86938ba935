/// A benchmark that could not run: bad options, a missing peer, lost rows.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }

    /// Wrong or missing options; the text says how to call the benchmark.
    static func usage(_ text: String) -> BenchError { BenchError(text) }
}
