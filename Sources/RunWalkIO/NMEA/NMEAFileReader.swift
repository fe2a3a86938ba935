import RunWalkCore

/// Reads an NMEA file line by line into epochs (fixes), reporting bad lines with their position.
///
/// Streams the file in fixed-size chunks: memory does not grow with the file.
public struct NMEAFileReader {
    /// The file read (`-` for standard input).
    public let path: String
    /// The decoder, with its statistics after `read`.
    public private(set) var decoder = NMEADecoder()
    /// Problems found, once per cause with their first line.
    public private(set) var diagnostics: DiagnosticLog
    /// Lines read so far (every line of the file, comments and blank lines included).
    public private(set) var lineNumber = 0

    /// A reader for `path` that reports problems to `diagnostics`.
    public init(path: String, diagnostics: DiagnosticLog = DiagnosticLog()) {
        self.path = path
        self.diagnostics = diagnostics
    }

    /// Streams the file in reads of `chunkSize` bytes, calling `body` with every fix in order.
    public mutating func read(chunkSize: Int = 1 << 16, _ body: (Fix) throws -> Void) throws {
        let source = try ByteSource(path: path)
        var framer = NMEALineFramer()
        try source.forEachChunk(size: chunkSize) { chunk in
            try feed(chunk.assumingMemoryBound(to: UInt8.self), framer: &framer, body)
        }
        try finish(framer: &framer, body)
    }

    /// Decodes the next bytes of a stream this reader does not open itself (standard input, a
    /// gzip file): lines may run across calls, `framer` keeps their pieces. `finish` ends it.
    /// The per-line work stays in this struct's one inlined method, as in `read`, not in a
    /// closure of the caller's (which boxed the decoder: standard input ran 1.5× slower).
    public mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, framer: inout NMEALineFramer,
                              _ body: (Fix) throws -> Void) throws {
        try framer.feed(bytes) { line, truncated in try handle(line, truncated: truncated, body) }
    }

    /// The end of the stream: its last line, the junk the framer skipped and the last epoch.
    public mutating func finish(framer: inout NMEALineFramer, _ body: (Fix) throws -> Void) throws {
        try framer.finish { line, truncated in try handle(line, truncated: truncated, body) }
        decoder.countJunk(bytes: framer.junkBytes)
        try decoder.finish(body)
    }

    /// Says `line` (a warning about the stream as a whole) through the reader's diagnostics.
    public mutating func say(_ line: String) {
        diagnostics.say(line)
    }

    @inline(__always)
    private mutating func handle(_ line: UnsafeBufferPointer<UInt8>, truncated: Bool, _ body: (Fix) throws -> Void) throws {
        lineNumber += 1
        if truncated {
            decoder.skip(lineWith: .tooLong)
            diagnostics.report(path: path, line: lineNumber, problem: .tooLong)
            return
        }
        let problem = try decoder.feed(line: line, body)
        if let problem, problem.isBad {
            diagnostics.report(path: path, line: lineNumber, problem: problem)
        }
    }
}
