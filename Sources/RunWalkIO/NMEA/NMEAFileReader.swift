import RunWalkCore

/// Reads an NMEA file line by line into epochs (fixes), reporting bad lines with their position.
public struct NMEAFileReader {
    public let path: String
    public private(set) var decoder = NMEADecoder()
    public private(set) var diagnostics: DiagnosticLog

    public init(path: String, diagnostics: DiagnosticLog = DiagnosticLog()) {
        self.path = path
        self.diagnostics = diagnostics
    }

    /// Streams the file, calling `body` with every fix in order.
    public mutating func read(_ body: (Fix) throws -> Void) throws {
        try withoutActuallyEscaping(body) { body in try readEscaping(body) }
    }

    private mutating func readEscaping(_ body: @escaping (Fix) throws -> Void) throws {
        let source = try ByteSource(path: path)
        var framer = NMEALineFramer()
        var lineNumber = 0
        var decoder = self.decoder
        var diagnostics = self.diagnostics
        let path = self.path
        defer {
            self.decoder = decoder
            self.diagnostics = diagnostics
        }
        var pendingError: Error?
        let handle: (NMEALineFramer.Line) -> Void = { line in
            lineNumber += 1
            guard pendingError == nil else { return }
            let text = String(decoding: line.bytes, as: UTF8.self)
            let output = decoder.feed(line: Substring(text))
            if line.truncated {
                diagnostics.report(path: path, line: lineNumber, problem: .tooLong)
            } else if let problem = output.problem, problem != .unsupported, problem != .proprietary {
                diagnostics.report(path: path, line: lineNumber, problem: problem)
            }
            if let fix = output.fix {
                do { try body(fix) } catch { pendingError = error }
            }
        }
        try source.forEachChunk { chunk in
            framer.feed(chunk, handle)
            if let pendingError { throw pendingError }
        }
        framer.finish(handle)
        if let pendingError { throw pendingError }
        if let fix = decoder.finish() { try body(fix) }
    }
}
