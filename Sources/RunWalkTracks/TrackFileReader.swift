import RunWalkCore
import RunWalkIO

/// Reads any track file RunWalk knows into fixes: NMEA 0183, GPX 1.0/1.1, TCX and FIT,
/// each plain or gzip-compressed, told apart by content (magic bytes, XML root), not by name.
///
/// NMEA goes through the NMEA reader; GPX and TCX are streamed (memory does not grow with
/// the file); FIT is streamed too. Points become fixes with time,
/// position, altitude and the file's speed only where it agrees with the positions; a new
/// segment, track or a pause marker sets `Fix.startsSegment`. Problems that leave the rest
/// usable are warned once per cause with a count; a file that cannot be read throws
/// `TrackFileError` (or `InputError`) naming the line or byte.
public struct TrackFileReader: FixFileReading {
    /// The file read (`-` for standard input).
    public let path: String
    /// The track (GPX) or activity (TCX) to read, 1-based; nil for all of them.
    public let trackIndex: Int?
    /// NMEA problems, once per cause; track-file warnings go to its sink when reading ends.
    public private(set) var diagnostics: DiagnosticLog
    /// The NMEA decoder's statistics (zero for other formats).
    public private(set) var statistics = NMEADecoder().statistics
    /// What was read, known after `read`.
    public private(set) var format: TrackFormat?
    /// Whether the file was gzip-compressed.
    public private(set) var compressed = false
    /// Fixes produced.
    public private(set) var epochs = 0
    /// Warning lines of a GPX, TCX or FIT file (also sent to the diagnostics' sink).
    public private(set) var warnings: [String] = []
    /// Bytes per read of an NMEA file or stream (`runwalk fixes` reads 1 MiB at a time, so a
    /// big log's time goes to the decoder rather than to system calls).
    public var chunkSize = 1 << 16
    /// Called before a read from a pipe would wait for its writer: the caller flushes its output,
    /// so that what was read so far is seen while the pipe is slow.
    public var beforeWaiting: (() throws -> Void)?

    /// A reader for `path`; `trackIndex` picks one track of a file with several.
    public init(path: String, diagnostics: DiagnosticLog = DiagnosticLog(), trackIndex: Int? = nil) {
        self.path = path
        self.diagnostics = diagnostics
        self.trackIndex = trackIndex
    }

    /// Streams the file, calling `body` with every fix in order.
    public mutating func read(_ body: (Fix) throws -> Void) throws {
        let input = try TrackInput(path: path)
        input.beforeWaiting = beforeWaiting
        var head = [UInt8](repeating: 0, count: 1 << 16)
        var count = 0
        // Fill the head (pipes and gzip may deliver less), enough to see the root element; NMEA
        // is known by its first character, so a slow pipe of sentences is not kept waiting.
        while count < 4096, !head.withUnsafeBufferPointer({ TrackFormat.isPlainText(UnsafeBufferPointer(rebasing: $0[0..<count])) }) {
            let n = try head.withUnsafeMutableBytes { try input.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[count...])) }
            if n == 0 { break }
            count += n
        }
        head.removeSubrange(count...)
        compressed = input.compressed
        let format = head.withUnsafeBytes { TrackFormat.detect($0) }
        self.format = format
        var pipeline = TrackPointPipeline()
        var stoppedByCaller = false
        let counted: (Fix) throws -> Void = { fix in
            do { try body(fix) } catch { stoppedByCaller = true; throw error }
        }
        if format == .nmea, let root = head.withUnsafeBytes({ TrackFormat.rootElement($0.bindMemory(to: UInt8.self)) }) {
            throw TrackFileError(path: path, place: "line \(root.line)",
                                 message: "the root element is <\(root.name)>: not GPX (<gpx>) or TCX (<TrainingCenterDatabase>)")
        }
        if format == .nmea {
            // The NMEA reader opens the file again: only a regular file starts over; what was
            // already read from a pipe or FIFO would be lost.
            if input.isRegularFile && !compressed {
                var reader = NMEAFileReader(path: path, diagnostics: diagnostics)
                defer { diagnostics = reader.diagnostics; statistics = reader.decoder.statistics; epochs = statistics.epochs }
                try reader.read(chunkSize: chunkSize, body)
            } else {
                try readNMEA(input, head: head, body)
            }
            return
        }
        do {
            switch format {
            case .nmea: return
            case .gpx:
                var stream = XMLStream(input: input, head: head)
                try GPXFileParser(path: path, track: trackIndex).parse(&stream, into: &pipeline, counted)
            case .tcx:
                var stream = XMLStream(input: input, head: head)
                try TCXFileParser(path: path, activity: trackIndex).parse(&stream, into: &pipeline, counted)
            case .fit:
                if let trackIndex, trackIndex != 1 {
                    throw TrackFileError(path: path, message: "--track \(trackIndex), but a FIT file holds one activity")
                }
                let decoder = FITDecoder(path: path)
                if input.isRegularFile {
                    // Checked whole first (headers, sizes, CRCs: a cheap pass that keeps nothing), so a
                    // damaged file fails before any point is handed out; standard input is checked as it is read.
                    _ = try decoder.check(FITByteStream(input: try TrackInput(path: path), head: []))
                }
                try decoder.decode(FITByteStream(input: input, head: head), into: &pipeline, counted)
            }
            try pipeline.finish(counted)
        } catch where stoppedByCaller {
            // The caller stopped early (the workout ended first): still say what was skipped so far.
            epochs = pipeline.epochs
            warnings = pipeline.warnings.lines(path: path)
            for line in warnings { diagnostics.say(line) }
            throw error
        }
        if input.truncated { pipeline.warnings.add("the gzip data end early (truncated file); the points it held were read") }
        epochs = pipeline.epochs
        if epochs == 0 {
            // Nothing usable: one error line that says why, rather than warnings and then an error.
            let entries = pipeline.warnings.entries
            let why = entries.map { $0.message.replacingCount($0.count) }.joined(separator: "; ")
            throw TrackFileError(path: path, place: entries.first?.first,
                                 message: "no usable \(format.rawValue) points (timed, with a position)" + (why.isEmpty ? "" : ": \(why)"))
        }
        warnings = pipeline.warnings.lines(path: path)
        for line in warnings { diagnostics.say(line) }
    }

    /// NMEA from standard input or a gzip file: the same framing and decoding as the NMEA reader.
    private mutating func readNMEA(_ input: TrackInput, head: [UInt8], _ body: (Fix) throws -> Void) throws {
        var reader = NMEAFileReader(path: path, diagnostics: diagnostics)
        defer {
            diagnostics = reader.diagnostics
            statistics = reader.decoder.statistics
            epochs = statistics.epochs
        }
        var framer = NMEALineFramer()
        try head.withUnsafeBufferPointer { try reader.feed($0, framer: &framer, body) }
        // One buffer for every read: zlib passes plain data straight into a buffer this large.
        let chunk = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(chunkSize, 1 << 12))
        defer { chunk.deallocate() }
        while true {
            let n = try input.read(into: UnsafeMutableRawBufferPointer(chunk))
            if n == 0 { break }
            try reader.feed(UnsafeBufferPointer(rebasing: chunk[0..<n]), framer: &framer, body)
        }
        try reader.finish(framer: &framer, body)
        if input.truncated { reader.say("warning: \(path): the gzip data end early (truncated file); the lines it held were read") }
    }
}
