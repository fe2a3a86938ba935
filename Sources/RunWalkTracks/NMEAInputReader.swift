import RunWalkCore
import RunWalkIO

/// NMEA from a stream only `TrackInput` can read (standard input, a gzip file): the same
/// framing, decoding, line numbers and diagnostics as the NMEA file reader, after the head
/// already read to tell the format.
///
/// A struct with the framer local to `read`, as in the NMEA file reader: the per-line work
/// stays in one inlined method rather than in closures that capture the decoder (which
/// boxes it; standard input ran 1.5× slower that way).
struct NMEAInputReader {
    let path: String
    private(set) var decoder = NMEADecoder()
    private(set) var diagnostics: DiagnosticLog
    private var lineNumber = 0

    init(path: String, diagnostics: DiagnosticLog) {
        self.path = path
        self.diagnostics = diagnostics
    }

    /// Decodes `head`, then the rest of `input` in reads of `chunkSize` bytes, calling `body` with every fix.
    mutating func read(_ input: TrackInput, head: [UInt8], chunkSize: Int, _ body: (Fix) throws -> Void) throws {
        var framer = NMEALineFramer()
        try head.withUnsafeBufferPointer { buffer in
            try framer.feed(buffer) { line, truncated in try handle(line, truncated: truncated, body) }
        }
        // One buffer for every read: zlib passes plain data straight into a buffer this large.
        let chunk = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(chunkSize, 1 << 12))
        defer { chunk.deallocate() }
        while true {
            let n = try input.read(into: UnsafeMutableRawBufferPointer(chunk))
            if n == 0 { break }
            try framer.feed(UnsafeBufferPointer(rebasing: chunk[0..<n])) { line, truncated in try handle(line, truncated: truncated, body) }
        }
        try framer.finish { line, truncated in try handle(line, truncated: truncated, body) }
        decoder.countJunk(bytes: framer.junkBytes)
        try decoder.finish(body)
        if input.truncated { diagnostics.say("warning: \(path): the gzip data end early (truncated file); the lines it held were read") }
    }

    @inline(__always)
    private mutating func handle(_ line: UnsafeBufferPointer<UInt8>, truncated: Bool, _ body: (Fix) throws -> Void) throws {
        lineNumber += 1
        if truncated {
            decoder.skip(lineWith: .tooLong)
            diagnostics.report(path: path, line: lineNumber, problem: .tooLong)
            return
        }
        if let problem = try decoder.feed(line: line, body), problem.isBad {
            diagnostics.report(path: path, line: lineNumber, problem: problem)
        }
    }
}
