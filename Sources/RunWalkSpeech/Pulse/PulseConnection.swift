#if canImport(Glibc)
import Glibc
#endif
import CPulse

/// A connection to PulseAudio (or PipeWire's Pulse server) driven by its own thread.
///
/// libpulse's asynchronous API is the only one that sets a stream's properties (its role) and
/// changes other streams' volumes; `pa_threaded_mainloop` runs its callbacks on a thread of
/// its own, so callers take the loop's lock, start an operation and wait to be signalled.
final class PulseConnection: @unchecked Sendable {
    let mainloop: OpaquePointer
    let context: OpaquePointer

    /// Connects to `server` (nil: `$PULSE_SERVER`, else the default) without spawning a server.
    init(server: String?, clientName: String) throws(SpeechError) {
        // Not even loaded when no server can be there (the default speaker on a headless device).
        if server == nil, let reason = PulseServerLookup.live.noServerReason() { throw SpeechError(description: "no audio server (PulseAudio: \(reason))") }
        // libpulse is opened here, on first use, not at start-up (CPulse): missing, it is no server.
        guard rw_pulse_load() != 0 else { throw SpeechError(description: "no audio server (PulseAudio: \(String(cString: rw_pulse_load_error())))") }
        guard let mainloop = pa_threaded_mainloop_new() else { throw SpeechError(description: "no audio server (PulseAudio: cannot create a main loop)") }
        let properties = pa_proplist_new()
        pa_proplist_sets(properties, PA_PROP_APPLICATION_NAME, "RunWalk")
        pa_proplist_sets(properties, PA_PROP_APPLICATION_ID, "runwalk")
        defer { pa_proplist_free(properties) }
        guard let context = pa_context_new_with_proplist(pa_threaded_mainloop_get_api(mainloop), clientName, properties) else {
            pa_threaded_mainloop_free(mainloop)
            throw SpeechError(description: "no audio server (PulseAudio: cannot create a context)")
        }
        // The loop pointer is the callback's user data: all a state change needs is a wake-up.
        pa_context_set_state_callback(context, { _, loop in
            pa_threaded_mainloop_signal(OpaquePointer(loop), 0)
        }, UnsafeMutableRawPointer(mainloop))
        pa_threaded_mainloop_lock(mainloop)
        let connected = server.withOptionalCString { pa_context_connect(context, $0, PA_CONTEXT_NOAUTOSPAWN, nil) }
        var started = false
        if connected >= 0 && pa_threaded_mainloop_start(mainloop) >= 0 {
            started = true
            while true {
                let state = pa_context_get_state(context)
                if state == PA_CONTEXT_READY || state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED { break }
                pa_threaded_mainloop_wait(mainloop)
            }
        }
        let ready = pa_context_get_state(context) == PA_CONTEXT_READY
        let reason = String(cString: pa_strerror(pa_context_errno(context)))
        pa_threaded_mainloop_unlock(mainloop)
        guard ready else {
            // The loop's thread is stopped (unlocked) before anything it uses is freed.
            if started { pa_threaded_mainloop_stop(mainloop) }
            pa_context_unref(context)
            pa_threaded_mainloop_free(mainloop)
            throw SpeechError(description: "no audio server (PulseAudio: \(reason))")
        }
        // Set only now: an init that throws must not leave a half-made connection for deinit.
        self.mainloop = mainloop
        self.context = context
    }

    deinit {
        pa_threaded_mainloop_lock(mainloop)
        pa_context_disconnect(context)
        pa_threaded_mainloop_unlock(mainloop)
        pa_threaded_mainloop_stop(mainloop)
        pa_context_unref(context)
        pa_threaded_mainloop_free(mainloop)
    }

    /// Runs `body` holding the loop's lock (never call from a libpulse callback: it already holds it).
    func locked<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        return try body()
    }

    /// Waits for a callback's signal; the lock must be held.
    func wait() { pa_threaded_mainloop_wait(mainloop) }

    /// Whether the server is still there.
    var isReady: Bool { pa_context_get_state(context) == PA_CONTEXT_READY }

    /// The last error, in libpulse's words.
    var lastError: String { String(cString: pa_strerror(pa_context_errno(context))) }

    /// Waits (lock held) until `operation` is done or cancelled, then releases it; false when there was none.
    @discardableResult
    func finish(_ operation: OpaquePointer?) -> Bool {
        guard let operation else { return false }
        while pa_operation_get_state(operation) == PA_OPERATION_RUNNING && isReady { wait() }
        pa_operation_unref(operation)
        return true
    }

    /// User data for callbacks that only need to wake the waiting thread.
    var wakeUp: UnsafeMutableRawPointer { UnsafeMutableRawPointer(mainloop) }
}

/// A libpulse success callback that wakes whoever waits on the loop given as user data.
let signalLoop: pa_context_success_cb_t = { _, _, loop in
    pa_threaded_mainloop_signal(OpaquePointer(loop), 0)
}

/// The sink inputs (playback streams) a server lists, as plain values.
struct SinkInput: Equatable {
    var index: UInt32
    var volume: [pa_volume_t]
    var role: String?
    var volumeWritable: Bool
}

extension PulseConnection {
    /// Lists the server's playback streams (lock held).
    func sinkInputs() -> [SinkInput] {
        let collector = SinkInputCollector(mainloop: mainloop)
        let box = Unmanaged.passRetained(collector)
        defer { box.release() }
        finish(pa_context_get_sink_input_info_list(context, { _, info, eol, data in
            guard let data else { return }
            let collector = Unmanaged<SinkInputCollector>.fromOpaque(data).takeUnretainedValue()
            if eol != 0 { pa_threaded_mainloop_signal(collector.mainloop, 0); return }
            if let info { collector.inputs.append(SinkInput(info.pointee)) }
        }, box.toOpaque()))
        return collector.inputs
    }

    /// Sets a playback stream's volume and waits for the server to take it (lock held).
    func setVolumeAndWait(of index: UInt32, to volume: [pa_volume_t]) {
        var cvolume = pa_cvolume.from(volume)
        finish(pa_context_set_sink_input_volume(context, index, &cvolume, signalLoop, wakeUp))
    }
}

/// Gathers a listing's entries until libpulse says it is at the end.
private final class SinkInputCollector {
    let mainloop: OpaquePointer
    var inputs: [SinkInput] = []
    init(mainloop: OpaquePointer) { self.mainloop = mainloop }
}

extension SinkInput {
    /// Copies what ducking needs out of libpulse's record.
    init(_ info: pa_sink_input_info) {
        index = info.index
        volume = info.volume.channelVolumes
        role = info.proplist.flatMap { pa_proplist_gets($0, PA_PROP_MEDIA_ROLE) }.map { String(cString: $0) }
        volumeWritable = info.has_volume != 0 && info.volume_writable != 0
    }
}

extension pa_cvolume {
    /// The per-channel volumes.
    var channelVolumes: [pa_volume_t] {
        var copy = self
        let count = Int(min(channels, UInt8(PA_CHANNELS_MAX)))
        return withUnsafeBytes(of: &copy.values) { Array($0.bindMemory(to: pa_volume_t.self).prefix(count)) }
    }

    /// A volume with these per-channel values.
    static func from(_ values: [pa_volume_t]) -> pa_cvolume {
        var volume = pa_cvolume()
        volume.channels = UInt8(min(values.count, Int(PA_CHANNELS_MAX)))
        withUnsafeMutableBytes(of: &volume.values) { raw in
            let slots = raw.bindMemory(to: pa_volume_t.self)
            for (slot, value) in zip(slots.indices, values) { slots[slot] = value }
        }
        return volume
    }
}
