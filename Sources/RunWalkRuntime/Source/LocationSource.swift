import RunWalkCore

/// What a location source reports, in order.
public enum LocationEvent: Sendable, Equatable {
    /// One epoch's fix.
    case fix(Fix)
    /// The source is delivering (connected to gpsd, device open, file open).
    case connected(String)
    /// The source cannot deliver (gpsd not running or gone, device unplugged); it keeps retrying.
    case unavailable(String)
    /// What keeps a reachable source from giving positions, in a few words a status line can
    /// show ("gpsd has no receiver"); nil once it is over. Sent before the message that explains it.
    case problem(String?)
    /// A problem in the data worth telling the user once (a bad line in a file).
    case warning(String)
    /// More lines that were meant as sentences but could not be used.
    case badLines(Int)
    /// The source has nothing more (the end of a file).
    case ended
}

/// Where fixes come from, live or recorded: gpsd, an NMEA file, a serial receiver.
///
/// Each source reads on a thread of its own (libgps and serial reads block, and must not
/// hold a thread of the cooperative pool); ending the iteration of `events()` stops it.
public protocol LocationSource: Sendable {
    /// A short description for messages, e.g. `gpsd at localhost:2947`.
    var description: String { get }
    /// Starts the source; it runs until the consumer stops iterating.
    func events() -> AsyncStream<LocationEvent>
    /// Starts the source handing each event straight to `sink` from its own thread (`nil` once
    /// it has ended); `sink` handles the event before it returns (the session loop does), so a
    /// fix costs no thread hand-off and a file is read no faster than it is handled. Returns
    /// what stops it; nil when the source has no such path (then `events()` is used).
    func start(sink: @escaping @Sendable (LocationEvent?) -> Void) -> (@Sendable () -> Void)?
    /// As `start(sink:)`, returning a handle that can also ask for the rest of a finite source
    /// at once (`SourceHandle.drain`); the session loop starts sources through this.
    func startWithHandle(sink: @escaping @Sendable (LocationEvent?) -> Void) -> SourceHandle?
}

extension LocationSource {
    /// No direct path: consumers iterate `events()`.
    public func start(sink: @escaping @Sendable (LocationEvent?) -> Void) -> (@Sendable () -> Void)? { nil }

    /// The direct path's stop, and no drain (a live source has no rest to hand over).
    public func startWithHandle(sink: @escaping @Sendable (LocationEvent?) -> Void) -> SourceHandle? {
        start(sink: sink).map { SourceHandle(stop: $0) }
    }
}

/// What the session loop holds of a source started on its direct path.
public struct SourceHandle: Sendable {
    /// Stops the source: its thread ends once its current wait or read returns.
    public var stop: @Sendable () -> Void
    /// The workout is over and the loop reads the rest of the source for its warnings
    /// (`SessionLoop.readsSourceToEnd`): the source hands it over as fast as it can be read,
    /// no longer paced. Returns false when it cannot (the rest may never come: a pipe that stays
    /// open, a receiver); the loop then ends without it.
    public var drain: @Sendable () -> Bool

    public init(stop: @escaping @Sendable () -> Void, drain: @escaping @Sendable () -> Bool = { false }) {
        self.stop = stop
        self.drain = drain
    }
}
