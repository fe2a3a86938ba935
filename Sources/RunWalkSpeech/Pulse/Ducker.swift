#if canImport(Glibc)
import Glibc
#endif
import CPulse
import FoundationEssentials
import RunWalkIO

/// Lowers every other playback stream while a cue plays, and puts each back afterwards.
///
/// It changes the streams' own volumes through the server (so it works on any PulseAudio or
/// PipeWire-pulse, with no role-ducking module loaded) and follows streams that start or end
/// during a cue. Before lowering anything it writes a `DuckRecord`, so a RunWalk killed mid-cue
/// leaves enough behind for the next start to restore the music.
/// Every method but `init` expects the connection's lock to be free; callbacks run with it held.
final class Ducker: @unchecked Sendable {
    private let pulse: PulseConnection
    private let factor: pa_volume_t
    private let record: DuckRecord
    private let server: String
    /// Our own cue stream, which is never lowered.
    var ownIndex = UInt32.max
    private var active = false
    private var lowered: [UInt32: LoweredStream] = [:]
    /// The first failure to write the record or to change a volume, told once by the sink.
    private(set) var failure: String?

    /// Follows `pulse`'s playback streams to lower them by `decibels` (negative) during cues.
    init(pulse: PulseConnection, decibels: Double, record: DuckRecord) throws(SpeechError) {
        self.pulse = pulse
        factor = pa_sw_volume_from_dB(decibels)
        self.record = record
        server = pulse.locked { pa_context_get_server(pulse.context).map { String(cString: $0) } } ?? ""
        let ok: Bool = pulse.locked {
            pa_context_set_subscribe_callback(pulse.context, { _, event, index, data in
                guard let data else { return }
                Unmanaged<Ducker>.fromOpaque(data).takeUnretainedValue().streamEvent(event, index: index)
            }, Unmanaged.passUnretained(self).toOpaque())
            guard let operation = pa_context_subscribe(pulse.context, PA_SUBSCRIPTION_MASK_SINK_INPUT, signalLoop, pulse.wakeUp) else { return false }
            pulse.finish(operation)
            return pulse.isReady
        }
        guard ok else { throw SpeechError(description: "the audio server does not report its streams (\(pulse.lastError))") }
    }

    /// Stops following streams; the ducker must not outlive this call's connection.
    func detach() {
        pulse.locked { pa_context_set_subscribe_callback(pulse.context, nil, nil) }
    }

    /// Lowers every playback stream but ours (and other announcements) until `restore`.
    func lower() {
        pulse.locked {
            active = true
            for input in pulse.sinkInputs() { lowerStream(input) }
        }
    }

    /// Puts back every stream still lowered, then forgets the record.
    func restore() {
        pulse.locked {
            active = false
            guard !lowered.isEmpty else { return }
            let now = Dictionary(pulse.sinkInputs().map { ($0.index, $0.volume) }, uniquingKeysWith: { first, _ in first })
            var operations: [OpaquePointer] = []
            for stream in lowered.values {
                guard let volume = now[stream.index], DuckRecord.isStillDucked(volume, as: stream.ducked) else { continue }
                var cvolume = pa_cvolume.from(stream.original)
                if let operation = pa_context_set_sink_input_volume(pulse.context, stream.index, &cvolume, signalLoop, pulse.wakeUp) {
                    operations.append(operation)
                }
            }
            // The record goes only once the server has taken every restored volume.
            operations.forEach { pulse.finish($0) }
            lowered = [:]
            record.remove()
        }
    }

    /// Lowers one stream (lock held: called under `lower` or from a callback).
    private func lowerStream(_ input: SinkInput) {
        guard active, input.index != ownIndex, lowered[input.index] == nil, input.volumeWritable,
              input.role != "announcement", !input.volume.isEmpty else { return }
        let stream = LoweredStream(index: input.index, original: input.volume,
                                   ducked: input.volume.map { pa_sw_volume_multiply($0, factor) })
        lowered[input.index] = stream
        do {
            try record.write(server: server, streams: Array(lowered.values))
        } catch {
            // Without a record a crash could leave the music low: better not to lower it at all.
            lowered[input.index] = nil
            if failure == nil { failure = "cannot keep a record of lowered streams in \(record.url.deletingLastPathComponent().path): \(FileErrorText.reason(error))" }
            return
        }
        var cvolume = pa_cvolume.from(stream.ducked)
        if let operation = pa_context_set_sink_input_volume(pulse.context, input.index, &cvolume, signalLoop, pulse.wakeUp) {
            pa_operation_unref(operation)
        } else if failure == nil {
            failure = "cannot lower a stream's volume (\(pulse.lastError))"
        }
    }

    /// A stream appeared or ended (lock held: libpulse's callback).
    private func streamEvent(_ event: pa_subscription_event_type_t, index: UInt32) {
        guard event.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue == PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue else { return }
        switch event.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue {
        case PA_SUBSCRIPTION_EVENT_NEW.rawValue where active:
            // Music started during a cue is lowered too, once the server says what it is.
            // Retained until libpulse's end-of-list call: the answer may come after the sink let go.
            let retained = Unmanaged.passRetained(self)
            if let operation = pa_context_get_sink_input_info(pulse.context, index, { _, info, eol, data in
                guard let data else { return }
                let box = Unmanaged<Ducker>.fromOpaque(data)
                if eol != 0 { box.release(); return }
                if let info { box.takeUnretainedValue().lowerStream(SinkInput(info.pointee)) }
            }, retained.toOpaque()) {
                pa_operation_unref(operation)
            } else {
                retained.release()
            }
        case PA_SUBSCRIPTION_EVENT_REMOVE.rawValue:
            guard lowered.removeValue(forKey: index) != nil else { return }
            if lowered.isEmpty { record.remove() } else { try? record.write(server: server, streams: Array(lowered.values)) }
        default:
            break
        }
    }
}
