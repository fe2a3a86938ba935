import Testing
@testable import RunWalkTerminal
import RunWalkRuntime

@Suite struct KeyHandlerTests {
    private func keys(_ text: String, stage: SessionStatus.Stage? = .running, handler: inout KeyHandler) -> [SessionCommand] {
        handler.handle(Array(text.utf8), stage: stage)
    }

    @Test(arguments: [(" ", SessionCommand.toggle), ("p", .toggle), ("P", .toggle), ("n", .skip), ("b", .restart)])
    func singleKeys(key: String, command: SessionCommand) {
        var handler = KeyHandler()
        #expect(keys(key, handler: &handler) == [command])
        #expect(handler.overlay == .none)
    }

    @Test func pauseKeyWorksWhilePausedButNotWhileWaiting() {
        var handler = KeyHandler()
        #expect(keys(" ", stage: .paused, handler: &handler) == [.toggle])
        #expect(keys(" ", stage: .waitingForFix, handler: &handler) == [])
        #expect(keys(" ", stage: nil, handler: &handler) == [])
    }

    @Test func startOnlyWhileWaiting() {
        var handler = KeyHandler()
        #expect(keys("s", stage: .waitingForFix, handler: &handler) == [.start])
        #expect(keys("s", stage: .startCountdown, handler: &handler) == [.start])
        #expect(keys("s", stage: .running, handler: &handler) == [])
    }

    @Test func stopNeedsTwoQs() {
        var handler = KeyHandler()
        #expect(keys("q", handler: &handler) == [])
        #expect(handler.overlay == .confirmStop)
        #expect(keys("q", handler: &handler) == [.stop])
        #expect(handler.overlay == .none)
        #expect(keys("qq", handler: &handler) == [.stop], "both in one read")
    }

    @Test func anyOtherKeyCancelsTheStopAndDoesNothingElse() {
        var handler = KeyHandler()
        #expect(keys("qn", handler: &handler) == [])
        #expect(handler.overlay == .none)
        #expect(keys("q", handler: &handler) == [], "a fresh q asks again")
        #expect(keys(" ", handler: &handler) == [])
        #expect(keys("n", handler: &handler) == [.skip])
        // An arrow key (three bytes) is one key: it cancels, and the next q only asks.
        #expect(keys("q\u{1B}[Aq", handler: &handler) == [])
        #expect(handler.overlay == .confirmStop)
    }

    @Test func helpClosesOnAnyKeyWhichIsThenSwallowed() {
        var handler = KeyHandler()
        #expect(keys("?", handler: &handler) == [])
        #expect(handler.overlay == .help)
        #expect(keys("n", handler: &handler) == [])
        #expect(handler.overlay == .none)
        #expect(keys("n", handler: &handler) == [.skip])
    }

    @Test func escapeSequencesSplitOverReadsAreOneKey() {
        var handler = KeyHandler()
        #expect(keys("\u{1B}", handler: &handler) == [])
        #expect(keys("[1;5", handler: &handler) == [])
        #expect(keys("C", handler: &handler) == [], "the final byte ends the sequence")
        #expect(keys("n", handler: &handler) == [.skip])
        // A lone ESC followed by a key: the key counts.
        #expect(keys("\u{1B}n", handler: &handler) == [.skip])
    }

    @Test func unknownBytesDoNothing() {
        var handler = KeyHandler()
        #expect(keys("xyz123\r\n\t", handler: &handler) == [])
        #expect(handler.handle([0xFF, 0xC3, 0xA9], stage: .running) == [])
        #expect(handler.overlay == .none)
    }
}
