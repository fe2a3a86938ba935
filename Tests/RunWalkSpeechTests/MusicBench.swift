import Foundation
import Testing
@testable import RunWalkSpeech

/// A private PulseAudio with a null sink, a "music" tone playing on it (paplay) and its monitor recorded (parec).
final class MusicBench {
    let server: NullSinkServer
    private var music: SpawnedProcess?
    private var recorder: SpawnedProcess?
    let recording: URL
    /// The private `XDG_RUNTIME_DIR` of the RunWalk processes and sinks under test.
    let runtimeFolder: URL

    static let tools = ["/usr/bin/pulseaudio", "/usr/bin/paplay", "/usr/bin/parec", "/usr/bin/pactl"]
    /// Present, or in CI (where a missing tool must fail, not skip).
    static var canRun: Bool {
        tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) } || ProcessInfo.processInfo.environment["CI"] == "true"
    }

    init() throws {
        server = try NullSinkServer()
        recording = server.folder.appendingPathComponent("monitor.raw")
        runtimeFolder = server.folder.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtimeFolder, withIntermediateDirectories: true)
        guard server.waitUntilUp() else {
            server.stop()
            throw SpeechError(description: "the user-space PulseAudio server did not start")
        }
        let tone = server.folder.appendingPathComponent("tone.wav")
        try ToneFile.write(to: tone, seconds: 60)
        music = try SpawnedProcess("/usr/bin/paplay", ["--server=\(server.server)", "--client-name=music", tone.path])
        // The music plays steadily before the recording starts: its first windows are the reference level.
        usleep(500_000)
        recorder = try server.recordMonitor(to: recording, rate: ToneMeter.rate)
        // parec can take a while to connect on a busy machine: go on once 0.6 s of music is recorded.
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            let size = (try? FileManager.default.attributesOfItem(atPath: recording.path)[.size] as? Int) ?? 0
            if size >= ToneMeter.rate * 2 * 6 / 10 { break }
            usleep(20_000)
        }
    }

    /// The environment of a runwalk started against this server, with every folder private.
    var environment: [String: String] {
        ["PULSE_SERVER": server.server, "XDG_RUNTIME_DIR": runtimeFolder.path,
         "XDG_CONFIG_HOME": server.folder.appendingPathComponent("config").path,
         "RUNWALK_DATA_DIR": server.folder.appendingPathComponent("data").path, "HOME": server.folder.path]
    }

    /// `pactl list sink-inputs`, as a person checking a device would read it.
    func sinkInputs() throws -> String {
        let out = server.folder.appendingPathComponent("pactl.txt")
        let pactl = try SpawnedProcess("/usr/bin/pactl", ["--server=\(server.server)", "list", "sink-inputs"], stdoutPath: out.path)
        _ = pactl.waitForExit(seconds: 10)
        pactl.stop()
        return (try? String(contentsOf: out, encoding: .utf8)) ?? ""
    }

    /// The music stream's volume lines in `pactl list sink-inputs` (the paplay client's stream).
    func musicVolume() throws -> String {
        let blocks = try sinkInputs().components(separatedBy: "Sink Input #")
        let music = blocks.first { $0.contains("application.name = \"music\"") } ?? ""
        return music.split(separator: "\n").first { $0.contains("Volume:") && !$0.contains("Base") }.map(String.init) ?? "(no music stream)"
    }

    /// Records `moreSeconds` more of the monitor (counted in recorded bytes, not on the wall clock:
    /// parec may lag on a loaded machine), then stops the recorder and measures what it heard.
    /// (The recorder used to run on for 2 s more by accident: it inherited a blocked SIGTERM from
    /// the test's thread and stop() waited for its SIGKILL; issue 28.)
    func stopRecording(moreSeconds: Double = 2) throws -> ToneMeter {
        let size = { (try? FileManager.default.attributesOfItem(atPath: self.recording.path)[.size] as? Int) ?? 0 }
        let wanted = size() + Int(moreSeconds * Double(ToneMeter.rate)) * 2
        let deadline = Date().addingTimeInterval(moreSeconds + 15)
        while size() < wanted && Date() < deadline { usleep(20_000) }
        recorder?.stop()
        recorder = nil
        return try ToneMeter(file: recording)
    }

    func stop() {
        recorder?.stop()
        music?.stop()
        server.stop()
    }
}

/// The built `runwalk` beside the test bundle, and the repository's sample track.
enum RunWalkProgram {
    static var path: String {
        var folder = Bundle.main.bundleURL
        while folder.path != "/" && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("runwalk").path) {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("runwalk").path
    }

    static var sampleTrack: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("SampleTracks/demo-short.nmea").path
    }

    /// The sample track's first `seconds` (two sentences an epoch), so a paced replay ends soon after its workout.
    static func shortTrack(seconds: Int, in folder: URL) throws -> String {
        let lines = try String(contentsOfFile: sampleTrack, encoding: .utf8).split(whereSeparator: \.isNewline)
        let header = lines.prefix { $0.hasPrefix("#") }
        let url = folder.appendingPathComponent("short.nmea")
        try Data((header + lines.dropFirst(header.count).prefix(seconds * 2)).joined(separator: "\n").appending("\n").utf8).write(to: url)
        return url.path
    }
}
