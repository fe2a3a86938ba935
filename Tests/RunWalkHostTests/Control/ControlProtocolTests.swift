import Foundation
import RunWalkCore
import RunWalkRuntime
import Testing
@testable import RunWalkHost
import RunWalkIO

/// The request words, the answer lines, when a command's effect shows, and the status line.
@Suite("Control protocol")
struct ControlProtocolTests {
    @Test("request words parse; blanks and a CR around them are ignored", arguments: ControlRequest.words)
    func requestWords(word: String) throws {
        let parsed = try ControlRequest.parse(Array(" \(word)\r".utf8)).get()
        #expect(parsed.word == word)
        #expect(parsed == (word == "status" ? .status : .command(try #require(SessionCommand(rawValue: word)))))
    }

    @Test("unknown, empty and non-text requests are errors")
    func badRequests() {
        #expect(ControlRequest.parse(Array("Pause".utf8)) == .failure(.unknown("Pause")))
        #expect(ControlRequest.parse([]) == .failure(.empty))
        #expect(ControlRequest.parse([0xc3]) == .failure(.notText))
    }

    @Test("answers encode with ok first and decode back")
    func answers() throws {
        let ok = ControlResponse.ok(SampleStatus.running)
        #expect(ok.encoded().hasPrefix("{\"ok\":true,\"status\":{\"auto_paused\":false,"))
        #expect(ControlResponse.decode(Array(ok.encoded().utf8)) == ok)
        #expect(ControlResponse.ok(nil).encoded() == "{\"ok\":true,\"status\":null}")
        #expect(ControlResponse.decode(Array("{\"ok\":true,\"status\":null}".utf8)) == .ok(nil))
        let failure = ControlResponse.failure("say \"hi\"\n")
        #expect(failure.encoded() == "{\"ok\":false,\"error\":\"say \\\"hi\\\"\\n\"}")
        #expect(ControlResponse.decode(Array(failure.encoded().utf8)) == failure)
        #expect(ControlResponse.decode(Array("hello".utf8)) == nil)
    }

    @Test("a command has taken effect when the status shows it")
    func settle() {
        let running = SampleStatus.running, paused = SampleStatus.paused, skipped = SampleStatus.skipped
        var stopped = running
        stopped.stage = .stopped
        var waiting = SessionStatus(workout: "w", stage: .waitingForFix, phaseCount: 3)
        #expect(ControlSettle.isSettled(.pause, before: running, now: paused))
        #expect(!ControlSettle.isSettled(.pause, before: running, now: running))
        #expect(ControlSettle.isSettled(.pause, before: paused, now: paused), "already paused: nothing to wait for")
        #expect(ControlSettle.isSettled(.resume, before: paused, now: running))
        #expect(!ControlSettle.isSettled(.toggle, before: running, now: running))
        #expect(ControlSettle.isSettled(.toggle, before: paused, now: running))
        #expect(ControlSettle.isSettled(.skip, before: running, now: skipped))
        #expect(!ControlSettle.isSettled(.skip, before: running, now: running))
        var restarted = running
        restarted.phaseElapsedSeconds = 0
        #expect(ControlSettle.isSettled(.restart, before: running, now: restarted))
        #expect(!ControlSettle.isSettled(.restart, before: running, now: running))
        #expect(!ControlSettle.isSettled(.stop, before: running, now: running))
        #expect(ControlSettle.isSettled(.stop, before: running, now: stopped))
        #expect(ControlSettle.isSettled(.skip, before: running, now: stopped), "a finished session changes no more")
        #expect(!ControlSettle.isSettled(.start, before: waiting, now: waiting))
        waiting.stage = .startCountdown
        #expect(!ControlSettle.isSettled(.start, before: waiting, now: waiting))
        #expect(ControlSettle.isSettled(.start, before: waiting, now: running))
        #expect(ControlSettle.isSettled(.pause, before: nil, now: running), "before the first status any status is news")
    }

    @Test("status lines")
    func statusLines() {
        #expect(SessionStatusLine.render(SampleStatus.running) == "run 3/8 · 1:12 left · 2.31 km · 5:40 /km · GPS fix ±3 m, 9 sats")
        #expect(SessionStatusLine.render(SampleStatus.paused) == "PAUSED · run 3/8 · 1:12 left · 2.31 km · 5:40 /km · GPS fix ±3 m, 9 sats")
        var status = SampleStatus.running
        status.phaseRemainingSeconds = nil
        status.phaseRemainingMetres = 349.6
        status.currentPaceSecondsPerKm = nil
        status.gps = .init(state: .lost, lostForSeconds: 12)
        #expect(SessionStatusLine.render(status) == "run 3/8 · 350 m left · 2.31 km · -:-- /km · GPS lost for 0:12")
        status.units = .imperial
        status.paused = true
        status.autoPaused = true
        status.gps = .init(state: .fix, satellites: 7)
        #expect(SessionStatusLine.render(status) == "PAUSED (auto) · run 3/8 · 0.22 mi left · 1.44 mi · -:-- /mi · GPS fix 7 sats")
        #expect(SessionStatusLine.render(SessionStatus(workout: "w", stage: .waitingForFix, phaseCount: 3))
                == "waiting for a GPS fix · 0.00 km · -:-- /km · No GPS fix yet")
        #expect(SessionStatusLine.render(SessionStatus(workout: "w", stage: .waitingForFix, phaseCount: 3,
                                                       gps: .init(state: .noFix, problem: "gpsd has no receiver")))
                == "waiting for a GPS fix · 0.00 km · -:-- /km · GPS: gpsd has no receiver")
        #expect(SessionStatusLine.render(SessionStatus(workout: "w", stage: .startCountdown, phaseCount: 3, gps: .init(state: .fix),
                                                       startCountdownSeconds: 2))
                == "starting in 2 · 0.00 km · -:-- /km · GPS fix")
        var done = SampleStatus.running
        done.stage = .completed
        #expect(SessionStatusLine.render(done) == "completed · 8:20 · 2.31 km · 6:00 /km average")
    }
}
