import FoundationEssentials
import RunWalkRuntime

/// gpsd's receivers as its reports tell them, and what to say when they change: gpsd running
/// with no receiver otherwise looks like a long wait for a fix.
///
/// gpsd answers a watch with `DEVICES` (every receiver it has), then sends a `DEVICE` whenever
/// one is activated (`"activated":"2026-…"`) or goes away (`"activated":0`). A device gpsd was
/// given but could not open (gpsd 3.22 frees it: "device activation failed") is not listed either.
/// One tracker per connection: a gpsd that restarted is asked afresh.
struct GPSDDevices {
    /// The status's few words while gpsd has no receiver.
    static let noReceiver = "gpsd has no receiver"

    /// `localhost:2947`, for messages.
    let address: String
    /// The receivers gpsd has now, by path, in the order they came.
    private(set) var paths: [String] = []
    /// Whether the DEVICES report has been seen on this connection.
    private(set) var listed = false

    init(address: String) {
        self.address = address
    }

    /// What to tell the consumer about one message from gpsd (nothing for most).
    mutating func events(for message: String) -> [LocationEvent] {
        // Cheap test first: nearly every message is a TPV or SKY.
        guard message.contains("\"class\":\"DEVICE"),
              let object = try? JSONDecoder().decode(DeviceReport.self, from: Data(message.utf8)) else { return [] }
        switch object.kind {
        case "DEVICES":
            let list = object.devices ?? []
            let wasListed = listed
            listed = true
            paths = list.compactMap(\.path)
            // A receiver gpsd already has is no news (the connection was said); none is.
            if paths.isEmpty { return noneLeft(wasListed ? "gpsd at \(address) has no receiver any more" : nil) }
            return []
        case "DEVICE":
            guard let path = object.path, let activated = object.activated else { return [] }
            // gpsd writes a time when it opens a receiver and 0 when it closes one.
            if activated == .number(0) {
                guard let index = paths.firstIndex(of: path) else { return [] }
                paths.remove(at: index)
                if paths.isEmpty {
                    return noneLeft("gpsd at \(address) lost its receiver \(path) and has none now")
                }
                return [.warning("gpsd at \(address): receiver \(path) went away; still reading \(paths.joined(separator: ", "))")]
            }
            guard !paths.contains(path) else { return [] }
            let hadNone = paths.isEmpty
            paths.append(path)
            let text = "gpsd at \(address): receiver \(path) attached"
            return hadNone ? [.problem(nil), .connected(text)] : [.connected(text)]
        default:
            return []
        }
    }

    /// The fields of a DEVICES or DEVICE report that matter here (gpsd's other fields are skipped).
    private struct DeviceReport: Decodable {
        /// `DEVICES`, `DEVICE`, …
        var kind: String
        /// DEVICES: every receiver gpsd has.
        var devices: [Device]?
        /// DEVICE: the receiver's path.
        var path: String?
        /// DEVICE: a time when gpsd opened the receiver, 0 when it closed it.
        var activated: Activated?

        enum CodingKeys: String, CodingKey {
            case kind = "class", devices, path, activated
        }

        /// One receiver of a DEVICES report.
        struct Device: Decodable {
            var path: String?
        }

        /// A number (0: closed) or anything else (a time: opened).
        enum Activated: Decodable, Equatable {
            case number(Double)
            case other

            init(from decoder: Decoder) throws {
                let value = try decoder.singleValueContainer()
                self = (try? value.decode(Double.self)).map { .number($0) } ?? .other
            }
        }
    }

    /// gpsd has no receiver: the few words for the status, then the message that says what to do.
    private func noneLeft(_ lead: String?) -> [LocationEvent] {
        let what = lead ?? "gpsd at \(address) is running but has no receiver"
        return [.problem(Self.noReceiver),
                .unavailable("\(what): plug the GPS in (gpsd's hotplug rule adds it), or add it by hand with "
                    + "`gpsdctl add /dev/ttyACM0` (or start gpsd with the device: `gpsd /dev/ttyACM0`); if gpsd was given "
                    + "one, it could not open it (gpsd's log says why: often permissions); waiting for a receiver")]
    }
}
