#if canImport(Glibc)
import Glibc
#endif
import CPulseSimple
import Dispatch
import RunWalkCore

/// Plays clips on the speaker through PulseAudio (or PipeWire's Pulse server), one at a time.
///
/// Clips are queued on one serial queue, each after an optional delay, so two never
/// overlap and none is cut: a clip waits for the one before it to be written out.
public final class SpeakerSink: @unchecked Sendable {
    private let stream: OpaquePointer
    private let queue = DispatchQueue(label: "runwalk.speaker")
    private let lock = NSLockLike()
    private var failure: SpeechError?

    /// Connects to the audio server (`server` nil: the default, or `$PULSE_SERVER`).
    public init(server: String? = nil) throws {
        var spec = pa_sample_spec(format: PA_SAMPLE_S16LE, rate: UInt32(SpeechClip.sampleRate), channels: 1)
        var error: Int32 = 0
        let stream = server.withOptionalCString { serverName in
            pa_simple_new(serverName, "runwalk", PA_STREAM_PLAYBACK, nil, "voice cues", &spec, nil, nil, &error)
        }
        guard let stream else {
            throw SpeechError(description: "no audio server (PulseAudio: \(String(cString: pa_strerror(error))))")
        }
        self.stream = stream
    }

    deinit { pa_simple_free(stream) }

    /// Queues `clip` to start `delaySeconds` from now, or when the clip before it has been written.
    public func play(_ clip: SpeechClip, afterSeconds delaySeconds: Double = 0) {
        let due = DispatchTime.now() + max(0, delaySeconds)
        queue.async { [self] in
            let now = DispatchTime.now()
            if due > now { usleep(UInt32(min(60, Double(due.uptimeNanoseconds - now.uptimeNanoseconds) / 1e9) * 1e6)) }
            var error: Int32 = 0
            let written = clip.samples.withUnsafeBytes { pa_simple_write(stream, $0.baseAddress, $0.count, &error) }
            if written < 0 { record("PulseAudio write failed: \(String(cString: pa_strerror(error)))") }
        }
    }

    /// Waits until everything queued has been played out.
    public func drain() throws {
        queue.sync {
            var error: Int32 = 0
            if pa_simple_drain(stream, &error) < 0 { record("PulseAudio drain failed: \(String(cString: pa_strerror(error)))") }
        }
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw failure }
    }

    private func record(_ message: String) {
        lock.lock()
        if failure == nil { failure = SpeechError(description: message) }
        lock.unlock()
    }
}

extension Optional where Wrapped == String {
    /// Calls `body` with a C string, or with nil.
    func withOptionalCString<R>(_ body: (UnsafePointer<CChar>?) -> R) -> R {
        switch self {
        case .some(let text): return text.withCString { body($0) }
        case .none: return body(nil)
        }
    }
}
