import Foundation
import RunWalkCore
import Testing
@testable import RunWalkSpeech

/// Checks a recording: the tone `level` dB lower inside every cue (nil: unchanged), back to
/// its reference level (± 0.5 dB) between and after cues when `between` says so.
private func expectDucking(_ meter: ToneMeter, level: Double?, cues expectedCues: Int?, restoredBetween: Bool,
                           sourceLocation: SourceLocation = #_sourceLocation) throws {
    let cues = meter.cues
    if let expectedCues { #expect(cues.count == expectedCues, "cues found: \(cues)", sourceLocation: sourceLocation) }
    let first = try #require(cues.first, "no speech on the monitor", sourceLocation: sourceLocation)
    try #require(first.first >= 6, "speech from the start of the recording: \(cues)", sourceLocation: sourceLocation)
    let reference = try #require(meter.medianDecibels(4..<(first.first - 2)), "no music before the first cue", sourceLocation: sourceLocation)
    #expect(reference > 60, "the tone is at \(reference) dB: is the music playing?", sourceLocation: sourceLocation)
    for (number, cue) in cues.enumerated() {
        // The edge windows straddle the moment the volume changes.
        let inside = (cue.first + 1)..<max(cue.first + 1, cue.last)
        #expect(inside.count >= 8, "cue \(number + 1) is \(inside.count) windows long", sourceLocation: sourceLocation)
        let off = meter.outliers(inside, reference: reference, offset: level ?? 0, tolerance: level == nil ? 0.5 : 1.5)
        let atLevel = off.isEmpty
        #expect(atLevel, "cue \(number + 1): the tone is not at \(level ?? 0) dB: \(off.prefix(8))", sourceLocation: sourceLocation)
        let next = number + 1 < cues.count ? cues[number + 1].first : meter.windows.count
        guard restoredBetween || number + 1 == cues.count else { continue }
        // 1.3 s after the last sound: the clip's silent tail has played, the hold (0.8 s) is over and the volume is back.
        let after = (cue.last + 26)..<max(cue.last + 26, next - 2)
        #expect(after.count >= 4, "too little music after cue \(number + 1) to measure", sourceLocation: sourceLocation)
        let notBack = meter.outliers(after, reference: reference, offset: 0, tolerance: 0.5)
        let back = notBack.isEmpty
        #expect(back, "after cue \(number + 1) the tone is not back: \(notBack.prefix(8))", sourceLocation: sourceLocation)
    }
}

extension SpeechSuites {
    @Suite("Music ducking (real PulseAudio)")
    struct MusicDuckingTests {
        @Test("the speaker lowers the music by the set amount during each cue and restores it after",
              .enabled(if: MusicBench.canRun, "pulseaudio, paplay, parec and pactl are not installed (scripts/test installs them)"),
              arguments: [-12.0, -6.0])
        func ducksDuringCues(level: Double) throws {
            let bench = try MusicBench()
            defer { bench.stop() }
            let synthesizer = try EspeakSynthesizer.shared()
            let speaker = try SpeakerSink(server: bench.server.server, duckDecibels: level, recordFolder: bench.runtimeFolder)
            let inputs = try bench.sinkInputs()
            #expect(inputs.contains("media.role = \"announcement\""), "the cue stream has no announcement role:\n\(inputs)")
            speaker.play(try synthesizer.clip("Run for 90 seconds.", language: .en))
            speaker.play(try synthesizer.clip("Walk for 1 minute.", language: .en), afterSeconds: 3.5)
            try speaker.drain()
            #expect(!FileManager.default.fileExists(atPath: bench.runtimeFolder.appendingPathComponent("ducked-\(getpid())").path),
                    "the record of lowered streams outlived the cue")
            usleep(1_000_000)
            try expectDucking(try bench.stopRecording(), level: level, cues: 2, restoredBetween: true)
        }

        @Test("with ducking off the music keeps its level under a cue",
              .enabled(if: MusicBench.canRun, "pulseaudio, paplay, parec and pactl are not installed (scripts/test installs them)"))
        func offLeavesMusic() throws {
            let bench = try MusicBench()
            defer { bench.stop() }
            let speaker = try SpeakerSink(server: bench.server.server, duckDecibels: nil, recordFolder: bench.runtimeFolder)
            speaker.play(try EspeakSynthesizer.shared().clip("Run for 90 seconds.", language: .en))
            try speaker.drain()
            usleep(1_000_000)
            try expectDucking(try bench.stopRecording(), level: nil, cues: 1, restoredBetween: true)
        }

        @Test("a music stream that starts during a cue is lowered too, and restored with the rest",
              .enabled(if: MusicBench.canRun, "pulseaudio, paplay, parec and pactl are not installed (scripts/test installs them)"))
        func lateStream() throws {
            let bench = try MusicBench()
            defer { bench.stop() }
            let speaker = try SpeakerSink(server: bench.server.server, duckDecibels: -12, recordFolder: bench.runtimeFolder)
            // A long cue; a second player starts a moment into it.
            speaker.play(try EspeakSynthesizer.shared().clip("Kilometre 2 in 12 minutes 40. Pace 6 minutes 5 per kilometre.", language: .en))
            usleep(700_000)
            let tone = bench.server.folder.appendingPathComponent("tone.wav")
            let late = try SpawnedProcess("/usr/bin/paplay", ["--server=\(bench.server.server)", "--client-name=late", tone.path])
            defer { late.stop() }
            usleep(700_000)
            let during = try bench.sinkInputs().components(separatedBy: "Sink Input #").first { $0.contains("application.name = \"late\"") } ?? ""
            #expect(during.contains("-12.00 dB"), "the stream that started mid-cue is not lowered:\n\(during)")
            try speaker.drain()
            let after = try bench.sinkInputs().components(separatedBy: "Sink Input #").first { $0.contains("application.name = \"late\"") } ?? ""
            #expect(after.contains("/ 0.00 dB") && !after.contains("-12.00 dB"), "the late stream stayed lowered:\n\(after)")
        }

        @Test("runwalk killed mid-cue leaves the music low; the next runwalk start brings it back to full level",
              .enabled(if: MusicBench.canRun, "pulseaudio, paplay, parec and pactl are not installed (scripts/test installs them)"))
        func sigkillMidCue() throws {
            let bench = try MusicBench()
            defer { bench.stop() }
            let log = bench.server.folder.appendingPathComponent("first.err")
            let first = try SpawnedProcess(RunWalkProgram.path,
                ["replay", RunWalkProgram.sampleTrack, "--workout", "30s run, 30s walk", "--voice", "speaker", "--speed", "1", "--no-record"],
                environment: bench.environment, stderrPath: log.path)
            defer { first.stop() }
            let record = bench.runtimeFolder.appendingPathComponent("runwalk/ducked-\(first.pid)")
            let deadline = Date().addingTimeInterval(20)
            while !FileManager.default.fileExists(atPath: record.path) && first.isRunning && Date() < deadline { usleep(10_000) }
            try #require(FileManager.default.fileExists(atPath: record.path),
                         "runwalk never lowered the music: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
            usleep(300_000)
            kill(first.pid, SIGKILL)
            first.stop()
            // A while with nobody to restore it (and on the recording).
            usleep(1_000_000)
            // Killed mid-cue: nothing could restore the music, so it is still down, and the record says so.
            let killedVolume = try bench.musicVolume()
            #expect(killedVolume.contains("-12.00 dB"), "not lowered after the kill: \(killedVolume)")
            #expect(FileManager.default.fileExists(atPath: record.path))

            let nextLog = bench.server.folder.appendingPathComponent("next.err")
            let next = try SpawnedProcess(RunWalkProgram.path,
                ["replay", RunWalkProgram.sampleTrack, "--workout", "10s run", "--voice", "off", "--no-record"],
                environment: bench.environment, stderrPath: nextLog.path)
            defer { next.stop() }
            #expect(next.waitForExit(seconds: 60) == 0)
            let said = (try? String(contentsOf: nextLog, encoding: .utf8)) ?? ""
            #expect(said.contains("restored the volume of 1 audio stream an interrupted runwalk had lowered"), "\(said)")
            #expect(!FileManager.default.fileExists(atPath: record.path), "the record was not removed")
            let volume = try bench.musicVolume()
            #expect(volume.contains("/ 0.00 dB") && !volume.contains("-12.00 dB"), "the music is not back: \(volume)")
            usleep(600_000)
            let meter = try bench.stopRecording()
            // On the recording: full level first, -12 dB while it was left lowered, full level again at the end.
            let reference = try #require(meter.medianDecibels(4..<10))
            let end = try #require(meter.medianDecibels((meter.windows.count - 6)..<meter.windows.count))
            #expect(abs(end - reference) <= 0.5, "the tone ends at \(end - reference) dB")
            let lowered = meter.windows.filter { abs($0.toneDecibels - reference + 12) <= 1.5 }.count
            #expect(lowered >= 10, "only \(lowered) windows at -12 dB")
        }

        @Test("runwalk stopped by SIGTERM mid-cue finishes the cue and restores the music before it exits",
              .enabled(if: MusicBench.canRun, "pulseaudio, paplay, parec and pactl are not installed (scripts/test installs them)"))
        func sigtermMidCue() throws {
            let bench = try MusicBench()
            defer { bench.stop() }
            let log = bench.server.folder.appendingPathComponent("run.err")
            let replay = try SpawnedProcess(RunWalkProgram.path,
                ["replay", RunWalkProgram.sampleTrack, "--workout", "30s run, 30s walk", "--voice", "speaker", "--speed", "1", "--no-record"],
                environment: bench.environment, stderrPath: log.path)
            defer { replay.stop() }
            let record = bench.runtimeFolder.appendingPathComponent("runwalk/ducked-\(replay.pid)")
            let deadline = Date().addingTimeInterval(20)
            while !FileManager.default.fileExists(atPath: record.path) && replay.isRunning && Date() < deadline { usleep(10_000) }
            try #require(FileManager.default.fileExists(atPath: record.path),
                         "runwalk never lowered the music: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
            usleep(300_000)
            let lowered = try bench.musicVolume()
            #expect(lowered.contains("-12.00 dB"), "not lowered during the cue: \(lowered)")
            kill(replay.pid, SIGTERM)
            let status = replay.waitForExit(seconds: 30)
            #expect(status != nil, "runwalk did not exit on SIGTERM")
            let volume = try bench.musicVolume()
            #expect(volume.contains("/ 0.00 dB") && !volume.contains("-12.00 dB"), "the music is still low after exit: \(volume)")
            #expect(!FileManager.default.fileExists(atPath: record.path), "the record outlived a clean exit")
        }

        @Test("with no audio server the replay goes on and says once that there is no ducking")
        func noServer() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rw-noduck-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let log = folder.appendingPathComponent("replay.err")
            let replay = try SpawnedProcess(RunWalkProgram.path,
                ["replay", try RunWalkProgram.shortTrack(seconds: 24, in: folder), "--workout", "10s run, 10s walk", "--voice", "speaker", "--no-record"],
                environment: ["PULSE_SERVER": "unix:/nonexistent/runwalk-no-audio.sock", "XDG_RUNTIME_DIR": folder.path,
                              "XDG_CONFIG_HOME": folder.path, "RUNWALK_DATA_DIR": folder.appendingPathComponent("data").path],
                stderrPath: log.path)
            defer { replay.stop() }
            #expect(replay.waitForExit(seconds: 60) == 0)
            let lines = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n")
            #expect(lines.filter { $0.contains("no music ducking") }.count == 1, "\(lines)")
            #expect(lines.contains { $0.hasSuffix("] Run for 10 seconds.") }, "\(lines)")
        }

        @Test("replay --duck and the duck setting reach the speaker", .enabled(if: MusicBench.canRun, "pulseaudio, paplay, parec and pactl are not installed (scripts/test installs them)"),
              arguments: [(["--duck", "off"], nil as String?, nil as Double?), (["--duck", "-9"], "duck = off", -9.0), ([], "duck = -6 dB", -6.0)])
        func commandLine(options: [String], setting: String?, level: Double?) throws {
            let bench = try MusicBench()
            defer { bench.stop() }
            if let setting {
                let folder = bench.server.folder.appendingPathComponent("config/runwalk")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try Data("voice = speaker\n\(setting)\n".utf8).write(to: folder.appendingPathComponent("settings.conf"))
            }
            let log = bench.server.folder.appendingPathComponent("replay.err")
            let track = try RunWalkProgram.shortTrack(seconds: 24, in: bench.server.folder)
            let replay = try SpawnedProcess(RunWalkProgram.path,
                ["replay", track, "--workout", "10s run, 10s walk", "--voice", "speaker", "--speed", "3", "--no-record"] + options,
                environment: bench.environment, stderrPath: log.path)
            defer { replay.stop() }
            let started = Date()
            let status = replay.waitForExit(seconds: 90)
            let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            #expect(status == 0, "\(said)")
            #expect(Date().timeIntervalSince(started) < 30, "the replay took \(Date().timeIntervalSince(started)) s: \(said)")
            usleep(800_000)
            try expectDucking(try bench.stopRecording(), level: level, cues: nil, restoredBetween: false)
        }
    }

    @Suite("DuckRecord")
    struct DuckRecordTests {
        @Test("a record reads back what was written; torn or foreign text is not a record")
        func roundTrip() {
            let streams = [LoweredStream(index: 7, original: [65536, 60000], ducked: [16384, 15000]),
                           LoweredStream(index: 2, original: [40000], ducked: [10000])]
            let text = DuckRecord.text(server: "/run/user/1000/pulse/native", started: 4242, streams: streams)
            let parsed = DuckRecord.parse(text)
            #expect(parsed?.server == "/run/user/1000/pulse/native")
            #expect(parsed?.started == 4242)
            #expect(DuckRecord.parse(DuckRecord.text(server: "/s", started: nil, streams: streams))?.started == nil)
            #expect(parsed?.streams == streams.sorted { $0.index < $1.index })
            #expect(DuckRecord.parse("sink-input 7 original 1,2 ducked 1\nserver x\n") == nil)
            #expect(DuckRecord.parse("sink-input 7 original 1 duc") == nil)
            #expect(DuckRecord.parse("hello") == nil)
        }

        @Test("a volume counts as still lowered within rounding, not after someone changed it")
        func stillDucked() {
            #expect(DuckRecord.isStillDucked([16384, 16384], as: [16384, 16384]))
            #expect(DuckRecord.isStillDucked([16390], as: [16384]))
            #expect(!DuckRecord.isStillDucked([20000], as: [16384]))
            #expect(!DuckRecord.isStillDucked([16384], as: [16384, 16384]))
        }

        @Test("recovery leaves a live process's record alone and drops a dead one's whose server is gone")
        func recoveryScope() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rw-duck-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            defer { try? FileManager.default.removeItem(at: folder) }
            let stream = LoweredStream(index: 1, original: [65536], ducked: [16384])
            // PID 1 always runs; a reaped child's PID is dead.
            let live = DuckRecord(folder: folder, pid: 1)
            try live.write(server: "/nonexistent/runwalk-test.sock", streams: [stream])
            let child = try SpawnedProcess("/bin/true", [])
            _ = child.waitForExit(seconds: 10)
            let dead = DuckRecord(folder: folder, pid: child.pid)
            try dead.write(server: "/nonexistent/runwalk-test.sock", streams: [stream])
            #expect(MusicDuckingRecovery.restoreLeftovers(folder: folder) == 0)
            #expect(FileManager.default.fileExists(atPath: live.url.path))
            #expect(!FileManager.default.fileExists(atPath: dead.url.path))
            // PID 1 with another start time: the RunWalk that wrote it is gone and its PID reused.
            let startOfOne = try #require(DuckRecord.startTicks(of: 1))
            try Data(DuckRecord.text(server: "/nonexistent/runwalk-test.sock", started: startOfOne, streams: [stream]).utf8).write(to: live.url)
            #expect(MusicDuckingRecovery.restoreLeftovers(folder: folder) == 0)
            #expect(FileManager.default.fileExists(atPath: live.url.path), "the record of a live process was removed")
            try Data(DuckRecord.text(server: "/nonexistent/runwalk-test.sock", started: startOfOne + 1, streams: [stream]).utf8).write(to: live.url)
            #expect(MusicDuckingRecovery.restoreLeftovers(folder: folder) == 0)
            #expect(!FileManager.default.fileExists(atPath: live.url.path), "a reused PID kept a stale record")
            #expect(MusicDuckingRecovery.restoreLeftovers(folder: folder.appendingPathComponent("missing")) == 0)
        }
    }
}
