import FoundationEssentials
import RunWalkCore
import RunWalkRuntime
import RunWalkIO
import RunWalkTracks
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Fixes from a recorded track file (NMEA, GPX, TCX, FIT, gzip-compressed), as fast as possible
/// or paced at `speed` times real time by the track's own times.
public struct NMEAFileSource: LocationSource {
    public var path: String
    /// Nil for as fast as possible; 1 for real time.
    public var speed: Double?
    /// Which track of a file with several (from 1); nil for the reader's choice.
    public var trackIndex: Int?
    /// Why the file could not be read to its end (a damaged or hostile file: an input error
    /// the command reports with exit 2); nil while it reads, or when it was read whole.
    public var failure: String? { failureBox.value }
    private let failureBox = FailureBox()
    private final class FailureBox: @unchecked Sendable {
        private let lock = Lock()
        private var failure: String?
        var value: String? {
            get { lock.withLock { failure } }
            set { lock.withLock { failure = newValue } }
        }
    }

    public init(path: String, speed: Double? = nil, trackIndex: Int? = nil) {
        self.path = path
        self.speed = speed
        self.trackIndex = trackIndex
    }

    public var description: String { "NMEA file \(path)" }

    public func events() -> AsyncStream<LocationEvent> {
        let source = self
        // A file can be read far faster than a session consumes it: at most `window` events
        // wait, so memory stays flat however long the track.
        let gate = FlowGate(window: 256)
        // Paced, the track starts when the source is opened (as a receiver switched on then
        // would), not when the first line has been read: the session's clock starts here too.
        let opened = Date()
        let inner = threadedStream(name: "runwalk.nmea-file") { continuation, stop in
            let gated = GatedContinuation(continuation: continuation, gate: gate, stop: stop)
            source.serve({ gated.yield($0) }, stop, hurry: nil, opened: opened)
        }
        return gate.consuming(inner)
    }

    /// Reads the file on its own thread, handing each event to `sink` there (`nil` at the end):
    /// the session loop handles a fix before the next is read, so there is no queue to bound
    /// and no thread hand-off per fix (a 5-hour track at 10 Hz is 180,000 of them).
    public func start(sink: @escaping @Sendable (LocationEvent?) -> Void) -> (@Sendable () -> Void)? {
        startWithHandle(sink: sink)?.stop
    }

    /// As `start(sink:)`; the handle's `drain` ends the pacing (the workout is over: the rest of
    /// the track is read at once, for its warnings), and is refused for a track that is not a
    /// regular file (a pipe may never end; `replay -` from one that stays open waited forever).
    public func startWithHandle(sink: @escaping @Sendable (LocationEvent?) -> Void) -> SourceHandle? {
        let stop = StopFlag()
        let hurry = StopFlag()
        let source = self
        let opened = Date()
        let finite = Self.isRegularFile(path)
        NamedThread.start(name: "runwalk.nmea-file") {
            source.serve({ event in
                sink(event)
                return !stop.isSet
            }, stop, hurry: hurry, opened: opened)
            sink(nil)
        }
        return SourceHandle(stop: { stop.set() }, drain: {
            guard finite else { return false }
            hurry.set()
            return true
        })
    }

    /// Whether `path` (`-`: standard input) is a regular file, whose end comes however it is read.
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        let found = path == "-" ? fstat(STDIN_FILENO, &info) : stat(path, &info)
        return found == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Checks that the track can be opened (missing, unreadable, a folder), before a session starts.
    public static func checkReadable(_ path: String) throws(InputError) {
        _ = try ByteSource(path: path)
    }

    private struct Stopped: Error {}

    /// Reads the track, giving each event to `emit`, which returns false once the consumer has gone.
    /// Paced until `hurry` is set (its descriptor wakes a wait between fixes).
    private func serve(_ emit: @escaping @Sendable (LocationEvent) -> Bool, _ stop: StopFlag, hurry: StopFlag?, opened: Date) {
        let diagnostics = DiagnosticLog(sink: { _ = emit(.warning($0)) })
        var reader = TrackFileReader(path: path, diagnostics: diagnostics, trackIndex: trackIndex)
        var first: (track: UTCTime, wall: Date)?
        var reportedBad = 0
        _ = emit(.connected("reading \(path)"))
        do {
            try reader.read { fix in
                if stop.isSet { throw Stopped() }
                if let speed, !(hurry?.isSet ?? false) {
                    if let first {
                        let due = first.wall.addingTimeInterval(fix.time.since(first.track).seconds / speed)
                        let delay = due.timeIntervalSinceNow
                        if delay > 0, stop.wait(readable: hurry?.descriptor ?? -1, seconds: delay) == .stopped { throw Stopped() }
                    } else {
                        first = (fix.time, opened)
                    }
                }
                guard emit(.fix(fix)) else { throw Stopped() }
            }
        } catch is Stopped {
            return
        } catch let error as InputError {
            failureBox.value = error.description
            _ = emit(.unavailable(error.description))
            _ = emit(.ended)
            return
        } catch let error as TrackFileError {
            failureBox.value = error.description
            _ = emit(.unavailable(error.description))
            _ = emit(.ended)
            return
        } catch {
            _ = emit(.unavailable("\(UserText.path(path)): \(FileErrorText.reason(error))"))
            _ = emit(.ended)
            return
        }
        let bad = reader.statistics.linesBad - reportedBad
        reportedBad += bad
        if bad > 0 { _ = emit(.badLines(bad)) }
        for line in reader.diagnostics.closingLines() { _ = emit(.warning(line)) }
        _ = emit(.ended)
    }
}
