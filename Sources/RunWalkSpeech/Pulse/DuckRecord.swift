import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One playback stream RunWalk lowered: its index on the server and its volumes before and after.
struct LoweredStream: Equatable {
    var index: UInt32
    var original: [UInt32]
    var ducked: [UInt32]
}

/// What one RunWalk process has lowered, kept on disk exactly while it is lowered.
///
/// A process killed in the middle of a cue (SIGKILL, a crash, power loss of the process) cannot
/// restore the music itself; the next RunWalk start reads this file and restores it. The file
/// lives in `$XDG_RUNTIME_DIR/runwalk/` (private to the user, emptied at logout), one per process
/// (`ducked-PID`), so a second RunWalk running at the same time never undoes the first one's cue.
struct DuckRecord {
    let url: URL
    /// When process `pid` started, written into the record.
    private let started: UInt64?

    /// The record of process `pid` in `folder`.
    init(folder: URL, pid: Int32) {
        url = folder.appendingPathComponent("ducked-\(pid)")
        started = Self.startTicks(of: pid)
    }

    /// `$XDG_RUNTIME_DIR/runwalk`, else a per-user folder in /tmp.
    static func folder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return URL(fileURLWithPath: runtime).appendingPathComponent("runwalk")
        }
        return URL(fileURLWithPath: "/tmp/runwalk-\(getuid())")
    }

    /// Writes the record (atomically: a reader never sees half of it); the streams are lowered after it is on disk.
    func write(server: String, streams: [LoweredStream]) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try Data(Self.text(server: server, started: started, streams: streams).utf8).write(to: url, options: .atomic)
    }

    /// Removes the record once everything in it is restored.
    func remove() { try? FileManager.default.removeItem(at: url) }

    /// The file's text: a comment, the server, when the process started, then one line per stream.
    static func text(server: String, started: UInt64?, streams: [LoweredStream]) -> String {
        var lines = ["# RunWalk lowered these PulseAudio streams for a voice cue; the next runwalk start restores them",
                     "server \(server)"]
        if let started { lines.append("started \(started)") }
        for stream in streams.sorted(by: { $0.index < $1.index }) {
            let original = stream.original.map(String.init).joined(separator: ",")
            let ducked = stream.ducked.map(String.init).joined(separator: ",")
            lines.append("sink-input \(stream.index) original \(original) ducked \(ducked)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads a record's text back; nil when it is not one (a torn or foreign file is ignored, then removed).
    static func parse(_ text: String) -> (server: String, started: UInt64?, streams: [LoweredStream])? {
        var server: String?
        var started: UInt64?
        var streams: [LoweredStream] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let words = line.split(separator: " ").map(String.init)
            if words.count == 2, words[0] == "server" {
                server = words[1]
            } else if words.count == 2, words[0] == "started", let ticks = UInt64(words[1]) {
                started = ticks
            } else if words.count == 6, words[0] == "sink-input", words[2] == "original", words[4] == "ducked",
                      let index = UInt32(words[1]) {
                let original = words[3].split(separator: ",").compactMap { UInt32($0) }
                let ducked = words[5].split(separator: ",").compactMap { UInt32($0) }
                guard !original.isEmpty, original.count == ducked.count else { return nil }
                streams.append(LoweredStream(index: index, original: original, ducked: ducked))
            } else {
                return nil
            }
        }
        return server.map { ($0, started, streams) }
    }

    /// A process's start time (to tell it from a later one that reuses its PID) in clock ticks since boot (`/proc/PID/stat`, field 22); nil when it is gone.
    static func startTicks(of pid: Int32) -> UInt64? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let nameEnd = stat.lastIndex(of: ")") else { return nil }
        // Fields after the command name (which may hold spaces) start at field 3.
        let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
        return fields.count > 19 ? UInt64(fields[19]) : nil
    }

    /// Whether `volume` is still what RunWalk set (within rounding): anything else was changed by
    /// someone else since, and is theirs to keep.
    static func isStillDucked(_ volume: [UInt32], as ducked: [UInt32]) -> Bool {
        guard volume.count == ducked.count else { return false }
        return zip(volume, ducked).allSatisfy { now, set in
            let difference = now > set ? now - set : set - now
            return difference <= max(now, set) / 100 + 1
        }
    }
}
