import RunWalkCore

/// A reader of a recorded track file into fixes: the NMEA reader here, every other format
/// in RunWalkTracks. The replay driver takes any of them.
public protocol FixFileReading {
    /// Streams the file, calling `body` with every fix in order.
    mutating func read(_ body: (Fix) throws -> Void) throws
    /// Problems found, once per cause.
    var diagnostics: DiagnosticLog { get }
    /// The NMEA decoder's statistics (all zero for a file that is not NMEA).
    var statistics: NMEADecoder.Statistics { get }
}

extension NMEAFileReader: FixFileReading {
    /// The decoder's statistics after `read`.
    public var statistics: NMEADecoder.Statistics { decoder.statistics }

    /// Streams the file in the default chunks.
    public mutating func read(_ body: (Fix) throws -> Void) throws {
        try read(chunkSize: 1 << 16, body)
    }
}
