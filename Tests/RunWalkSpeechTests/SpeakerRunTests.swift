import Foundation
import Testing
import RunWalkTestSupport
@testable import RunWalkSpeech

/// A live `runwalk run --voice speaker` opens libpulse and libespeak-ng itself (they are not
/// linked: issue 18) and its cues reach a private PulseAudio server.
@Suite("runwalk run --voice speaker through a private PulseAudio (end to end)")
struct SpeakerRunTests {
    /// The runwalk executable beside this test bundle in the build folder.
    static var runwalk: URL {
        var folder = Bundle.main.bundleURL
        while folder.path != "/" && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("runwalk").path) {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("runwalk")
    }

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    @Test("the first cue is heard on the null sink's monitor, with libpulse and libespeak-ng mapped only then",
          .enabled(if: NullSinkServer.executable != nil && NullSinkServer.recorder != nil,
                   "pulseaudio and parec are not installed (scripts/test installs them)"))
    func speaks() throws {
        let server = try NullSinkServer()
        defer { server.stop() }
        guard server.waitUntilUp() else {
            withKnownIssue("the user-space PulseAudio server could not be started here") { throw SpeechError(description: "no server") }
            return
        }
        let recording = server.folder.appendingPathComponent("monitor.raw")
        let recorder = try server.recordMonitor(to: recording)
        defer { recorder.stop() }

        let track = Self.repositoryRoot.appendingPathComponent("SampleTracks/track-loop.nmea").path
        let errors = server.folder.appendingPathComponent("runwalk.err")
        let run = try SpawnedProcess(Self.runwalk.path,
            ["run", "2m run", "--gps", "file:\(track)", "--speed", "1", "--start", "now", "--voice", "speaker", "--no-record"],
            environment: ["PULSE_SERVER": server.server, "XDG_RUNTIME_DIR": server.folder.path,
                          "RUNWALK_DATA_DIR": server.folder.appendingPathComponent("data").path,
                          "RUNWALK_CONFIG_DIR": "/nonexistent/rw-config"],
            stderrPath: errors.path)
        defer { run.stop() }

        // "Run for 2 minutes." is said at the start: wait until about a second of speech came back.
        var loud = 0
        let deadline = Date().addingTimeInterval(20)
        while loud < 60 && Date() < deadline && run.isRunning {
            usleep(200_000)
            let samples = ((try? Data(contentsOf: recording)) ?? Data()).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
            loud = stride(from: 0, to: max(0, samples.count - 441), by: 441).filter { Audio.rms(samples[$0..<$0 + 441]) > 500 }.count
        }
        let maps = procFileText("/proc/\(run.pid)/maps")
        run.stop()
        let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        #expect(loud >= 60, "\(loud) loud 10 ms windows on the monitor; runwalk said: \(stderr)")
        #expect(maps.contains("/libpulse.so.0"), "libpulse is mapped once the speaker is used")
        #expect(maps.contains("/libespeak-ng.so.1"), "libespeak-ng is mapped once a cue is synthesised")
        #expect(!stderr.contains("no audio server"), "\(stderr)")
        #expect(!stderr.contains("] Run for 2 minutes."), "the cue went to the speaker, not to text: \(stderr)")
    }

    @Test("with no server anywhere (the default speaker on a headless device) libpulse is never loaded")
    func noServerLoadsNothing() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rw-noserver-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Empty values count as unset, here and for libpulse.
        let environment = ["PULSE_SERVER": "", "DISPLAY": "", "PULSE_CLIENTCONFIG": "", "PULSE_RUNTIME_PATH": "",
                           "HOME": folder.path, "XDG_CONFIG_HOME": folder.path, "XDG_RUNTIME_DIR": folder.path]
        let machine = PulseServerLookup.live
        guard PulseServerLookup(environment: environment, exists: machine.exists, contents: machine.contents, names: machine.names)
            .noServerReason() != nil else {
            withKnownIssue("this machine has a system-wide PulseAudio or a client.conf naming a server") { throw SpeechError(description: "a server may exist") }
            return
        }
        let track = Self.repositoryRoot.appendingPathComponent("SampleTracks/track-loop.nmea").path
        let errors = folder.appendingPathComponent("runwalk.err")
        let run = try SpawnedProcess(Self.runwalk.path,
            ["run", "2m run", "--gps", "file:\(track)", "--speed", "1", "--start", "now", "--voice", "speaker", "--no-record"],
            environment: environment.merging(["RUNWALK_DATA_DIR": folder.appendingPathComponent("data").path,
                                              "RUNWALK_CONFIG_DIR": "/nonexistent/rw-config"]) { _, new in new },
            stderrPath: errors.path)
        defer { run.stop() }
        let deadline = Date().addingTimeInterval(20)
        while !((try? String(contentsOf: errors, encoding: .utf8)) ?? "").contains(" left ") && Date() < deadline && run.isRunning {
            usleep(50_000)
        }
        let maps = procFileText("/proc/\(run.pid)/maps")
        run.stop()
        let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        #expect(maps.contains("[stack]") && !maps.contains("/libpulse"), "libpulse mapped with no server to be found")
        let told = stderr.split(separator: "\n").filter { $0.contains("no audio server") }
        #expect(told == ["runwalk: no audio server (PulseAudio: no server socket at \(folder.path)/pulse/native or /var/run/pulse/native): speaking cues as text on standard error (no music ducking)"],
                "\(stderr)")
        #expect(stderr.contains("] Run for 2 minutes."), "\(stderr)")
    }
}
