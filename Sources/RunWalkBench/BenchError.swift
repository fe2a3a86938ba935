import Foundation

/// A benchmark that could not run: bad options, a missing peer, lost rows.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }

    /// Wrong or missing options; the text says how to call the benchmark.
    static func usage(_ text: String) -> BenchError { BenchError(text) }
}

/// Lines on standard error through write(2): a closed or full stream is ignored, never a trap.
enum BenchLog {
    static func error(_ line: String) {
        var bytes = Array((line + "\n").utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return write(2, base + done, raw.count - done)
            }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            done += n
        }
    }
}
