import Foundation

/// What one process costs, read from /proc without perf: context switches summed over its
/// threads, CPU time (schedstat's nanoseconds, finer than /proc/PID/stat's ticks) and resident
/// memory.
struct ProcessSample {
    /// Voluntary context switches (each one a sleep and a wake-up), over all threads alive now.
    var voluntary = 0
    /// Involuntary ones (preemptions: the CPU was taken, not given up).
    var involuntary = 0
    /// CPU time used, seconds, over all threads alive now.
    var cpuSeconds = 0.0
    /// Resident set size, MB (VmRSS).
    var rssMB = 0.0
    /// Resident anonymous memory, MB (RssAnon): what is the process's alone.
    var anonymousMB = 0.0
    /// Voluntary switches per thread name (`comm`), to find who wakes.
    var voluntaryByThread: [String: Int] = [:]
    /// The monotonic time of the sample, seconds.
    var at = 0.0

    /// Reads `pid` now; nil when it is gone.
    static func read(_ pid: pid_t) -> ProcessSample? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              !status.contains("\nState:\tZ") else { return nil }
        var sample = ProcessSample()
        sample.at = monotonicSeconds()
        sample.rssMB = Double(field(status, "VmRSS:") ?? 0) / 1024
        sample.anonymousMB = Double(field(status, "RssAnon:") ?? 0) / 1024
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        for task in tasks {
            let base = "/proc/\(pid)/task/\(task)"
            guard let text = try? String(contentsOfFile: base + "/status", encoding: .utf8) else { continue }
            let voluntary = field(text, "voluntary_ctxt_switches:") ?? 0
            sample.voluntary += voluntary
            sample.involuntary += field(text, "nonvoluntary_ctxt_switches:") ?? 0
            let name = ((try? String(contentsOfFile: base + "/comm", encoding: .utf8)) ?? "?")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            sample.voluntaryByThread[name, default: 0] += voluntary
            if let sched = try? String(contentsOfFile: base + "/schedstat", encoding: .utf8),
               let first = sched.split(separator: " ").first, let ns = Double(first) {
                sample.cpuSeconds += ns / 1e9
            }
        }
        return sample
    }

    /// Proportional set size, MB (Pss of smaps_rollup): each shared page divided among the
    /// processes that map it, so libc's or libpulse's pages, which a phone's compositor and sound
    /// server map too, count in part. Read once per window end (the kernel walks every mapping).
    static func proportionalMB(_ pid: pid_t) -> Double? {
        guard let rollup = try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8),
              let kB = field(rollup, "Pss:") else { return nil }
        return Double(kB) / 1024
    }

    /// The number after `name` in a /proc status text.
    static func field(_ text: String, _ name: String) -> Int? {
        guard let range = text.range(of: "\n" + name) ?? (text.hasPrefix(name) ? text.range(of: name) : nil) else { return nil }
        let rest = text[range.upperBound...].drop { $0 == " " || $0 == "\t" }
        return Int(rest.prefix { $0.isNumber })
    }

    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

/// A process followed over a window: a sample at its start and end, RSS every second between.
struct ProcessFootprint {
    var first: ProcessSample
    var last: ProcessSample
    /// (seconds since the first sample, MB) once a second.
    var rss: [(Double, Double)]
    /// PSS at the end of the window, MB (nil: not read).
    var lastPSSMB: Double? = nil

    var seconds: Double { max(last.at - first.at, 1e-9) }
    /// Voluntary context switches a second: the wake-ups.
    var wakeupsPerSecond: Double { Double(last.voluntary - first.voluntary) / seconds }
    var involuntaryPerSecond: Double { Double(last.involuntary - first.involuntary) / seconds }
    /// CPU time as a percentage of one core.
    var cpuPercent: Double { 100 * (last.cpuSeconds - first.cpuSeconds) / seconds }
    var rssMaxMB: Double { rss.map(\.1).max() ?? last.rssMB }
    /// Least-squares slope of RSS over the window, MB a minute.
    var rssSlopeMBPerMinute: Double {
        guard rss.count >= 2 else { return 0 }
        let n = Double(rss.count)
        let mx = rss.map(\.0).reduce(0, +) / n, my = rss.map(\.1).reduce(0, +) / n
        let sxx = rss.map { ($0.0 - mx) * ($0.0 - mx) }.reduce(0, +)
        let sxy = rss.map { ($0.0 - mx) * ($0.1 - my) }.reduce(0, +)
        return sxx == 0 ? 0 : 60 * sxy / sxx
    }

    /// Wake-ups a second per thread name, busiest first (threads started in the window count from 0).
    var wakeupsByThread: [(String, Double)] {
        last.voluntaryByThread.map { name, count in (name, Double(count - (first.voluntaryByThread[name] ?? 0)) / seconds) }
            .filter { $0.1 > 0.05 }
            .sorted { $0.1 > $1.1 }
    }
}
