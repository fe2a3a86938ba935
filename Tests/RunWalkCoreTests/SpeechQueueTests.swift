import Testing
@testable import RunWalkCore

@Suite("SpeechQueue")
struct SpeechQueueTests {
    func cue(_ kind: CueKind, at: Double, length: Double, _ text: String = "x") -> Cue {
        Cue(atSeconds: at, text: text, kind: kind, durationSeconds: length)
    }

    @Test("beat cues keep their time when the voice is free")
    func beatOnTime() {
        var queue = SpeechQueue()
        #expect(queue.place(cue(.countdown, at: 97, length: 0.4), staleAfterSeconds: 0).map(\.atSeconds) == [97])
        #expect(queue.place(cue(.countdown, at: 98, length: 0.4), staleAfterSeconds: 0).map(\.atSeconds) == [98])
        #expect(queue.place(cue(.transition, at: 99.98, length: 1.5), staleAfterSeconds: 0).map(\.atSeconds) == [99.98])
    }

    @Test("a countdown number that cannot start on its second is dropped; a transition waits, never overlapping")
    func busyVoice() {
        var queue = SpeechQueue(gapSeconds: 0.1)
        _ = queue.place(cue(.pauseResume, at: 96.5, length: 2), staleAfterSeconds: 5)
        #expect(queue.place(cue(.countdown, at: 97, length: 0.4), staleAfterSeconds: 0).isEmpty)
        let transition = queue.place(cue(.transition, at: 98, length: 1.5), staleAfterSeconds: 0)
        #expect(abs((transition.first?.atSeconds ?? 0) - 98.6) < 1e-9)
    }

    @Test("a split that would run into the next boundary's window waits for the transition, then follows it")
    func splitWaitsForTransition() {
        var queue = SpeechQueue(gapSeconds: 0.1)
        #expect(queue.reserve(96.4...101.5).isEmpty)
        #expect(queue.place(cue(.split, at: 93, length: 5), staleAfterSeconds: 15).isEmpty, "it would run into the countdown")
        _ = queue.place(cue(.countdown, at: 97, length: 0.4), staleAfterSeconds: 0)
        let placed = queue.place(cue(.transition, at: 100, length: 1.5), staleAfterSeconds: 0)
        #expect(placed.map(\.kind) == [.transition, .split])
        #expect(abs((placed.last?.atSeconds ?? 0) - 101.6) < 1e-9)
    }

    @Test("a waiting cue that has gone stale is dropped")
    func staleDropped() {
        var queue = SpeechQueue(gapSeconds: 0.1)
        _ = queue.reserve(96.4...101.5)
        #expect(queue.place(cue(.split, at: 90, length: 7), staleAfterSeconds: 5).isEmpty)
        let placed = queue.place(cue(.transition, at: 100, length: 1.5), staleAfterSeconds: 0)
        #expect(placed.map(\.kind) == [.transition])
    }

    @Test("a cue clear of the window is said at once; the next waits for the voice")
    func sequential() {
        var queue = SpeechQueue(gapSeconds: 0.1)
        _ = queue.reserve(196.4...201.5)
        #expect(queue.place(cue(.halfway, at: 150, length: 2), staleAfterSeconds: 10).map(\.atSeconds) == [150])
        let split = queue.place(cue(.split, at: 151, length: 4), staleAfterSeconds: 15)
        #expect(abs((split.first?.atSeconds ?? 0) - 152.1) < 1e-9)
        #expect(abs(queue.busyUntilSeconds - 156.1) < 1e-9)
    }
}
