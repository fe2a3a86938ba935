import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Restores music that a RunWalk process lowered and could not put back (killed mid-cue).
public enum MusicDuckingRecovery {
    /// Restores what every dead process's record lists (in `folder`, default `$XDG_RUNTIME_DIR/runwalk`), removes those records, and returns how many streams came back up.
    ///
    /// Cheap when nothing was left behind (one folder listing); records of live processes (another
    /// RunWalk speaking right now) are left alone. A stream whose volume someone changed since is left as it is.
    public static func restoreLeftovers(folder: URL? = nil) -> Int {
        let folder = folder ?? DuckRecord.folder()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return 0 }
        var restored = 0
        for name in names where name.hasPrefix("ducked-") {
            guard let pid = Int32(name.dropFirst("ducked-".count)), pid != getpid() else { continue }
            let record = DuckRecord(folder: folder, pid: pid)
            let contents = (try? String(contentsOf: record.url, encoding: .utf8)).flatMap(DuckRecord.parse)
            // A live RunWalk's record is its own; a PID reused by another process since is not a live RunWalk.
            if isAlive(pid), contents?.started == nil || contents?.started == DuckRecord.startTicks(of: pid) { continue }
            defer { record.remove() }
            guard let (server, _, streams) = contents, !streams.isEmpty else { continue }
            // A server that is gone took its streams with it: nothing is left to restore.
            guard let pulse = try? PulseConnection(server: server.isEmpty ? nil : server, clientName: "RunWalk (restoring music)") else { continue }
            restored += pulse.locked {
                let now = Dictionary(pulse.sinkInputs().map { ($0.index, $0.volume) }, uniquingKeysWith: { first, _ in first })
                var count = 0
                for stream in streams {
                    guard let volume = now[stream.index], DuckRecord.isStillDucked(volume, as: stream.ducked) else { continue }
                    pulse.setVolumeAndWait(of: stream.index, to: stream.original)
                    count += 1
                }
                return count
            }
        }
        return restored
    }

    /// Whether process `pid` still runs (a record of a live RunWalk is its own business).
    static func isAlive(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
