import Foundation
import RunWalkTestSupport
import Testing

/// libpulse and libespeak-ng are opened only when a voice needs them (issue 18: RSS on a
/// headless handheld), seen from outside in a live `run`'s /proc/PID/maps.
@Suite("runwalk run loads the audio libraries only for a voice that speaks (end to end)")
struct VoiceLibraryLoadingTests {
    /// Libraries the speech stack brings: espeak-ng, and through it pcaudio, libpulse and ALSA.
    static let audioLibraries = ["libespeak-ng.so", "libpulse.so", "libpulse-simple.so", "libpcaudio.so", "libasound.so"]

    /// Starts a paced `run` on a sample track with `voice`, waits for its first status line and
    /// returns the audio libraries the process has mapped then, and the process (stopped by the caller).
    static func mappedAudioLibraries(voice: String, environment: [String] = []) throws -> (libraries: Set<String>, run: ChildProcess) {
        let track = RunWalkBinary.repositoryRoot.appendingPathComponent("SampleTracks/track-loop.nmea").path
        // Private data, config and runtime folders (ChildProcess); no settings file in them.
        let run = try ChildProcess("/usr/bin/env", environment + [
            RunWalkBinary.url.path,
            "run", "2m run", "--gps", "file:\(track)", "--speed", "1", "--start", "now", "--voice", voice, "--no-record",
        ])
        // A status line comes once a second after the loop has started and the voice was set up.
        guard run.waitForStderr(" left ", seconds: 20) else {
            Issue.record("no status line from runwalk run --voice \(voice): \(run.stderr)")
            return ([], run)
        }
        let maps = procFileText("/proc/\(run.pid)/maps")
        // The whole list was read: a linked library and the stack (near its end) are in it.
        #expect(maps.contains("/libsqlite3.so") && maps.contains("[stack]"), "\(maps)")
        let mapped = maps.split(separator: "\n").compactMap { line -> String? in
            guard let path = line.split(separator: " ", omittingEmptySubsequences: true).last, path.hasPrefix("/") else { return nil }
            let name = path.split(separator: "/").last.map(String.init) ?? ""
            return audioLibraries.first { name.hasPrefix($0) }
        }
        return (Set(mapped), run)
    }

    @Test("--voice text maps neither libpulse nor libespeak-ng (nor what they pull in)")
    func textVoiceMapsNoAudioLibrary() throws {
        let (libraries, run) = try Self.mappedAudioLibraries(voice: "text")
        defer { run.stop() }
        #expect(libraries.isEmpty, "mapped with --voice text: \(libraries.sorted())")
        run.send(SIGINT)
        #expect(run.wait(seconds: 10) == 0, "\(run.stderr)")
        #expect(run.stderr.contains("] Run for 2 minutes."), "the cue is still shown as text: \(run.stderr)")
    }

    @Test("--voice off maps neither; --voice wav: maps libespeak-ng (the check sees a library that is there)")
    func wavVoiceMapsEspeak() throws {
        let (offLibraries, offRun) = try Self.mappedAudioLibraries(voice: "off")
        offRun.stop()
        #expect(offLibraries.isEmpty, "mapped with --voice off: \(offLibraries.sorted())")

        let wav = FileManager.default.temporaryDirectory.appendingPathComponent("rw-lazy-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        let (libraries, run) = try Self.mappedAudioLibraries(voice: "wav:\(wav.path)")
        defer { run.stop() }
        #expect(libraries.contains("libespeak-ng.so"), "mapped with --voice wav: \(libraries.sorted())")
        run.send(SIGINT)
        #expect(run.wait(seconds: 10) == 0, "\(run.stderr)")
        // The voice track holds the first cue: espeak-ng, opened late, still speaks.
        let size = (try? FileManager.default.attributesOfItem(atPath: wav.path)[.size] as? Int) ?? 0
        #expect(size > 44 + 22_050, "WAV of \(size) bytes")
    }

    @Test("--voice speaker with a libpulse that cannot be loaded: one clear line, cues as text, the run goes on")
    func unloadableLibpulse() throws {
        // dlopen searches LD_LIBRARY_PATH first: a file there that is no library stands for a broken install.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rw-nopulse-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("not a shared library\n".utf8).write(to: folder.appendingPathComponent("libpulse.so.0"))

        // A server named outright, so that libpulse is asked for whatever sockets the machine (or
        // another test's PulseAudio) has or lacks: without it the lookup may find no server first
        // and never open libpulse, and the line says that instead.
        let (libraries, run) = try Self.mappedAudioLibraries(voice: "speaker", environment: [
            "LD_LIBRARY_PATH=\(folder.path)", "PULSE_SERVER=unix:\(folder.path)/no-server/native",
        ])
        defer { run.stop() }
        #expect(!libraries.contains("libpulse.so"), "\(libraries.sorted())")
        run.send(SIGINT)
        #expect(run.wait(seconds: 10) == 0, "\(run.stderr)")
        let told = run.stderr.split(separator: "\n").filter { $0.contains("no audio server") }
        #expect(told.count == 1, "\(run.stderr)")
        #expect(told.first?.hasPrefix("runwalk: no audio server (PulseAudio: \(folder.path)/libpulse.so.0: ") == true, "\(run.stderr)")
        #expect(told.first?.hasSuffix("speaking cues as text on standard error (no music ducking)") == true, "\(run.stderr)")
        #expect(run.stderr.contains("] Run for 2 minutes."), "\(run.stderr)")
    }
}
