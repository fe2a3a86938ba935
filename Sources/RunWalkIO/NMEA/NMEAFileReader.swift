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
            try framer.feed(chunk.assumingMemoryBound(to: UInt8.self)) { line, truncated in
                try handle(line, truncated: truncated, body)
            }
        }
        try framer.finish { line, truncated in try handle(line, truncated: truncated, body) }
        decoder.countJunk(bytes: framer.junkBytes)
        try decoder.finish(body)
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
