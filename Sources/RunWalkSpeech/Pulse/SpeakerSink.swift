#if canImport(Glibc)
import Glibc
#endif
import CPulse
import Dispatch
import FoundationEssentials
import RunWalkCore
import RunWalkRuntime

/// Plays clips on the speaker through PulseAudio (or PipeWire's Pulse server), one at a time,
/// as an announcement that lowers the runner's music while it speaks.
///
/// Clips are queued on one serial queue, each after an optional delay, so two never overlap
/// and none is cut. The cue stream carries `media.role=announcement` (a role-ducking setup
/// lowers music by itself); with ducking on, the sink also lowers every other playback stream
/// from just before a cue's first sample until its last one has played.
public final class SpeakerSink: @unchecked Sendable {
    private let pulse: PulseConnection
    private let stream: OpaquePointer
    private let ducker: Ducker?
    private let queue = DispatchQueue(label: "runwalk.speaker")
    private let lock = Lock()
    private var failure: SpeechError?
    /// Set when a bounded drain gave up: clips still queued are not played (the process is ending).
    private var cut = false
    /// Counts clips played (on the queue only): a delayed restore is void once another clip has started.
    private var clipsStarted = 0
    private var duckFailureTold = false
    private let notice: @Sendable (String) -> Void
    /// Music comes back up this long after a cue, unless another cue starts first: a "3, 2, 1"
    /// countdown (one number a second, a gap of about 0.6 s) keeps it down instead of pumping.
    static let holdSeconds = 0.8

    /// Connects to the audio server (`server` nil: `$PULSE_SERVER`, else the default).
    ///
    /// `duckDecibels` (negative) lowers other streams during cues, nil leaves them alone;
    /// `notice` hears, once, why ducking is not possible when the speaker itself works.
    /// `recordFolder` holds the record of what is lowered (default `$XDG_RUNTIME_DIR/runwalk`).
    public init(server: String? = nil, duckDecibels: Double? = nil, recordFolder: URL? = nil,
                notice: @escaping @Sendable (String) -> Void = { _ in }) throws {
        self.notice = notice
        pulse = try PulseConnection(server: server, clientName: "RunWalk")
        var spec = pa_sample_spec(format: PA_SAMPLE_S16LE, rate: UInt32(SpeechClip.sampleRate), channels: 1)
        let properties = pa_proplist_new()
        defer { pa_proplist_free(properties) }
        pa_proplist_sets(properties, PA_PROP_MEDIA_ROLE, "announcement")
        pa_proplist_sets(properties, PA_PROP_MEDIA_NAME, "voice cues")
        let pulse = self.pulse
        stream = try pulse.locked { () throws(SpeechError) -> OpaquePointer in
            guard let stream = pa_stream_new_with_proplist(pulse.context, "voice cues", &spec, nil, properties) else {
                throw SpeechError(description: "no audio server (PulseAudio: \(pulse.lastError))")
            }
            pa_stream_set_state_callback(stream, { _, loop in pa_threaded_mainloop_signal(OpaquePointer(loop), 0) }, pulse.wakeUp)
            pa_stream_set_write_callback(stream, { _, _, loop in pa_threaded_mainloop_signal(OpaquePointer(loop), 0) }, pulse.wakeUp)
            // A short buffer: a cue starts (and the music comes back) close to when it is due.
            let bytesPerSecond = UInt32(SpeechClip.sampleRate * 2)
            var attributes = pa_buffer_attr(maxlength: UInt32.max, tlength: bytesPerSecond / 5, prebuf: UInt32.max,
                                            minreq: UInt32.max, fragsize: UInt32.max)
            let flags = pa_stream_flags_t(PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_AUTO_TIMING_UPDATE.rawValue
                                          | PA_STREAM_INTERPOLATE_TIMING.rawValue)
            guard pa_stream_connect_playback(stream, nil, &attributes, flags, nil, nil) >= 0 else {
                pa_stream_unref(stream)
                throw SpeechError(description: "no audio server (PulseAudio: \(pulse.lastError))")
            }
            while pa_stream_get_state(stream) != PA_STREAM_READY {
                let state = pa_stream_get_state(stream)
                if state == PA_STREAM_FAILED || state == PA_STREAM_TERMINATED {
                    pa_stream_unref(stream)
                    throw SpeechError(description: "no audio server (PulseAudio: \(pulse.lastError))")
                }
                pulse.wait()
            }
            return stream
        }
        if let duckDecibels {
            do {
                let ducker = try Ducker(pulse: pulse, decibels: duckDecibels, record: DuckRecord(folder: recordFolder ?? DuckRecord.folder(), pid: getpid()))
                let stream = self.stream
                ducker.ownIndex = pulse.locked { pa_stream_get_index(stream) }
                self.ducker = ducker
            } catch {
                notice("no music ducking: \(error.description)")
                duckFailureTold = true
                ducker = nil
            }
        } else {
            ducker = nil
        }
    }

    deinit {
        // The queue has nothing left when the owner lets go; music must not stay down in any case.
        ducker?.restore()
        ducker?.detach()
        pulse.locked {
            pa_stream_set_state_callback(stream, nil, nil)
            pa_stream_set_write_callback(stream, nil, nil)
            pa_stream_disconnect(stream)
            pa_stream_unref(stream)
        }
    }

    /// Queues `clip` to start `delaySeconds` from now, or when the clip before it has played.
    public func play(_ clip: SpeechClip, afterSeconds delaySeconds: Double = 0) {
        let due = DispatchTime.now() + max(0, delaySeconds)
        queue.async { [self] in
            if lock.withLock({ cut }) { return }
            clipsStarted += 1
            let now = DispatchTime.now()
            if due > now {
                // Music held down after the last cue comes up while this one waits for its moment.
                if due > now + Self.holdSeconds { ducker?.restore() }
                usleep(UInt32(min(60, Double(due.uptimeNanoseconds - now.uptimeNanoseconds) / 1e9) * 1e6))
            }
            ducker?.lower()
            do {
                try write(clip)
                try drainStream()
            } catch {
                record("\(error)")
            }
            tellDuckFailure()
            guard let ducker else { return }
            let played = clipsStarted
            queue.asyncAfter(deadline: .now() + Self.holdSeconds) { [self] in
                if clipsStarted == played { ducker.restore() }
            }
        }
    }

    /// Waits until everything queued has been played out (and the music is back up).
    public func drain() throws {
        queue.sync {
            do { try drainStream() } catch { record("\(error)") }
            ducker?.restore()
        }
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw failure }
    }

    /// As `drain()`, waiting at most `seconds`: a session that was stopped does not wait for the
    /// rest of its cues. When it gives up (false), clips still queued are dropped and the music
    /// is brought back up at once (the ducker works under the audio loop's lock, from any thread);
    /// the cue being said plays on until the process ends.
    @discardableResult
    public func drain(atMostSeconds seconds: Double) throws -> Bool {
        let done = DispatchSemaphore(value: 0)
        queue.async { [self] in
            do { try drainStream() } catch { record("\(error)") }
            ducker?.restore()
            done.signal()
        }
        guard done.wait(timeout: .now() + seconds) == .success else {
            lock.withLock { cut = true }
            ducker?.restore()
            return false
        }
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw failure }
        return true
    }

    /// Writes the clip as fast as the server takes it.
    private func write(_ clip: SpeechClip) throws {
        try clip.samples.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            try pulse.locked { () throws(SpeechError) in
                var offset = 0
                while offset < bytes.count {
                    guard pa_stream_get_state(stream) == PA_STREAM_READY else {
                        throw SpeechError(description: "PulseAudio write failed: \(pulse.lastError)")
                    }
                    let writable = pa_stream_writable_size(stream)
                    if writable == 0 { pulse.wait(); continue }
                    guard writable > 0 else {
                        throw SpeechError(description: "PulseAudio write failed: \(pulse.lastError)")
                    }
                    let count = min(writable, bytes.count - offset)
                    guard pa_stream_write(stream, base + offset, count, nil, 0, PA_SEEK_RELATIVE) >= 0 else {
                        throw SpeechError(description: "PulseAudio write failed: \(pulse.lastError)")
                    }
                    offset += count
                }
            }
        }
    }

    /// Waits until the server has played everything written (a drain also starts a short clip that did not fill the pre-buffer).
    private func drainStream() throws(SpeechError) {
        try pulse.locked { () throws(SpeechError) in
            guard pa_stream_get_state(stream) == PA_STREAM_READY,
                  pulse.finish(pa_stream_drain(stream, { _, _, loop in pa_threaded_mainloop_signal(OpaquePointer(loop), 0) }, pulse.wakeUp)) else {
                throw SpeechError(description: "PulseAudio drain failed: \(pulse.lastError)")
            }
        }
    }

    private func tellDuckFailure() {
        guard !duckFailureTold, let ducker else { return }
        let failure = pulse.locked { ducker.failure }
        guard let failure else { return }
        duckFailureTold = true
        notice("no music ducking: \(failure)")
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
