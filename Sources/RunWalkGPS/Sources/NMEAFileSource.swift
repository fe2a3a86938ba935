import Foundation
import RunWalkCore
import RunWalkIO
import RunWalkTracks

/// Fixes from a recorded NMEA file, as fast as possible or paced at `speed` times real time
/// by the track's own times.
public struct NMEAFileSource: LocationSource {
    public var path: String
    /// Nil for as fast as possible; 1 for real time.
    public var speed: Double?

    public init(path: String, speed: Double? = nil) {
        self.path = path
        self.speed = speed
    }

    public var description: String { "NMEA file \(path)" }

    public func events() -> AsyncStream<LocationEvent> {
        let source = self
        return threadedStream(name: "runwalk.nmea-file") { continuation, stop in
            source.serve(continuation, stop)
        }
    }

    private struct Stopped: Error {}

    private func serve(_ continuation: AsyncStream<LocationEvent>.Continuation, _ stop: StopFlag) {
        let diagnostics = DiagnosticLog(sink: { continuation.yield(.warning($0)) })
        var reader = TrackFileReader(path: path, diagnostics: diagnostics)
        var first: (track: UTCTime, wall: Date)?
        var reportedBad = 0
        continuation.yield(.connected("reading \(path)"))
        do {
            try reader.read { fix in
                if stop.isSet { throw Stopped() }
                if let speed {
                    if let first {
                        let due = first.wall.addingTimeInterval(fix.time.since(first.track).seconds / speed)
                        let delay = due.timeIntervalSinceNow
                        if delay > 0, !stop.sleep(seconds: delay) { throw Stopped() }
                    } else {
                        first = (fix.time, Date())
                    }
                }
                continuation.yield(.fix(fix))
            }
        } catch is Stopped {
            return
        } catch let error as InputError {
            continuation.yield(.unavailable(error.description))
            continuation.yield(.ended)
            return
        } catch let error as TrackFileError {
            continuation.yield(.unavailable(error.description))
            continuation.yield(.ended)
            return
        } catch {
            continuation.yield(.unavailable("\(path): \(error)"))
            continuation.yield(.ended)
            return
        }
        let bad = reader.statistics.linesBad - reportedBad
        reportedBad += bad
        if bad > 0 { continuation.yield(.badLines(bad)) }
        for line in reader.diagnostics.closingLines() { continuation.yield(.warning(line)) }
        continuation.yield(.ended)
    }
}
