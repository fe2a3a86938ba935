#if canImport(Glibc)
import Glibc
#endif
import RunWalkCore

/// Writes a session's whole voice track as one WAV file whose timeline is the workout's:
/// silence between cues, each cue's audio starting at its sample (`atSeconds` × 22050).
///
/// Cues must come in the order the speech queue placed them (their starts never
/// decrease); a cue that would start inside the previous one's audio is moved after it
/// (and counted in `cuesMoved`), never cut and never mixed.
public final class WAVTrackWriter {
    public let path: String
    /// Samples written so far, from the session's clock zero.
    public private(set) var samplesWritten = 0
    /// Cues that had to start later than planned because audio was still playing.
    public private(set) var cuesMoved = 0
    private var file: UnsafeMutablePointer<FILE>?

    /// Creates (or truncates) the file and writes a provisional header.
    public init(path: String) throws {
        self.path = path
        guard let file = fopen(path, "wb") else {
            throw SpeechError(description: "\(path): cannot write the WAV file (\(String(cString: strerror(errno))))")
        }
        self.file = file
        try write(header(dataBytes: 0))
    }

    deinit { if let file { fclose(file) } }

    /// Places `clip` at its cue's start on the timeline.
    public func add(_ clip: SpeechClip, at startSeconds: Double) throws {
        var start = Int((max(0, startSeconds) * Double(SpeechClip.sampleRate)).rounded())
        if start < samplesWritten {
            cuesMoved += 1
            start = samplesWritten
        }
        try writeSilence(start - samplesWritten)
        try clip.samples.withUnsafeBufferPointer { try writeSamples($0) }
    }

    /// Pads with silence to `totalSeconds` (never cutting a cue), fixes the header, closes the file.
    public func finish(totalSeconds: Double) throws {
        let total = Int((totalSeconds * Double(SpeechClip.sampleRate)).rounded())
        try writeSilence(total - samplesWritten)
        guard let file else { return }
        fseek(file, 0, SEEK_SET)
        try write(header(dataBytes: samplesWritten * 2))
        let closed = fclose(file)
        self.file = nil
        if closed != 0 { throw SpeechError(description: "\(path): could not finish the WAV file") }
    }

    private func writeSilence(_ count: Int) throws {
        guard count > 0 else { return }
        let block = [Int16](repeating: 0, count: min(count, 1 << 16))
        var left = count
        while left > 0 {
            let n = min(left, block.count)
            try block.withUnsafeBufferPointer { try writeSamples(UnsafeBufferPointer(rebasing: $0[0..<n])) }
            left -= n
        }
    }

    private func writeSamples(_ samples: UnsafeBufferPointer<Int16>) throws {
        guard let file, let base = samples.baseAddress else { return }
        // WAV is little-endian, as is every machine RunWalk runs on.
        guard fwrite(base, 2, samples.count, file) == samples.count else {
            throw SpeechError(description: "\(path): write failed (\(String(cString: strerror(errno))))")
        }
        samplesWritten += samples.count
    }

    private func write(_ bytes: [UInt8]) throws {
        guard let file, fwrite(bytes, 1, bytes.count, file) == bytes.count else {
            throw SpeechError(description: "\(path): write failed")
        }
    }

    /// A 44-byte RIFF/WAVE header for 22050 Hz, 16-bit, mono PCM.
    private func header(dataBytes: Int) -> [UInt8] {
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: UInt32(truncatingIfNeeded: v) >> (8 * $0)) } }
        func le16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8(truncatingIfNeeded: UInt16(truncatingIfNeeded: v) >> (8 * $0)) } }
        let rate = SpeechClip.sampleRate
        return Array("RIFF".utf8) + le32(36 + dataBytes) + Array("WAVE".utf8)
            + Array("fmt ".utf8) + le32(16) + le16(1) + le16(1) + le32(rate) + le32(rate * 2) + le16(2) + le16(16)
            + Array("data".utf8) + le32(dataBytes)
    }
}
