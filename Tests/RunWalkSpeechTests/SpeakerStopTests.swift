import Foundation
import Testing
import RunWalkTestSupport
@testable import RunWalkSpeech

/// Issue 30, item 1: a stop ends the command within 2 s in every state, also while the speaker
/// says a cue. The voice waited for everything queued to be played out after a stop, past the
/// stop's deadline, and the summary was never printed.
@Suite("runwalk replay --voice speaker: a stop while a cue is said (end to end)")
struct SpeakerStopTests {
    @Test("SIGTERM while the first cue is said ends the replay within 2 s, its summary printed",
          .enabled(if: NullSinkServer.executable != nil && NullSinkServer.recorder != nil,
                   "pulseaudio and parec are not installed (scripts/test installs them)"))
    func stopWhileSpeaking() throws {
        let server = try NullSinkServer()
        defer { server.stop() }
        guard server.waitUntilUp() else {
            withKnownIssue("the user-space PulseAudio server could not be started here") { throw SpeechError(description: "no server") }
            return
        }
        let folder = server.folder.path
        let output = folder + "/runwalk.out", errors = folder + "/runwalk.err"
        let track = SpeakerRunTests.repositoryRoot.appendingPathComponent("SampleTracks/track-loop.nmea").path
        let run = try SpawnedProcess(SpeakerRunTests.runwalk.path,
            ["replay", track, "--workout", "1m warmup, 10m run", "--speed", "1", "--voice", "speaker", "--json", "--no-record"],
            environment: ["PULSE_SERVER": server.server, "XDG_RUNTIME_DIR": folder, "RUNWALK_DATA_DIR": folder + "/data",
                          "RUNWALK_CONFIG_DIR": folder + "/config", "XDG_DATA_HOME": folder + "/data",
                          "XDG_CONFIG_HOME": folder + "/config", "XDG_STATE_HOME": folder + "/state"],
            stdoutPath: output, stderrPath: errors)
        defer { run.stop() }

        // "Warm up for 1 minute." (about 1.5 s) is said at the start: stop as soon as the speaker
        // is opened for it (libpulse is mapped then), before the cue has been played.
        let deadline = Date().addingTimeInterval(20)
        while !procFileText("/proc/\(run.pid)/maps").contains("/libpulse.so.0") && Date() < deadline && run.isRunning {
            usleep(5_000)
        }
        try #require(run.isRunning, "runwalk ended early")
        usleep(100_000)
        kill(run.pid, SIGTERM)
        let code = run.waitForExit(seconds: 2)
        let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        #expect(code == 0, "still running or failed 2 s after SIGTERM: \(said)")
        let summary = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        #expect(summary.contains("\"state\" : \"stopped\""), "the summary is printed: \(summary.prefix(200))")
    }
}
