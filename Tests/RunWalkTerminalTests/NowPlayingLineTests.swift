import RunWalkCore
import RunWalkRuntime
import RunWalkTerminal
import Testing

@Suite("TerminalScreen: the runner's music")
struct NowPlayingLineTests {
    @Test("a roomy screen shows what plays; a small one keeps the facts and drops the music first")
    func musicLine() {
        let big = TerminalScreen.lines(status: SampleStatuses.running(), columns: 80, rows: 40, nowPlaying: "Born to Run — Bruce Springsteen")
        #expect(big.contains { $0.plain.contains("♪ Born to Run — Bruce Springsteen") }, "\(big.map(\.plain))")
        let small = TerminalScreen.lines(status: SampleStatuses.running(), columns: 40, rows: 20, nowPlaying: "Born to Run — Bruce Springsteen")
        let without = TerminalScreen.lines(status: SampleStatuses.running(), columns: 40, rows: 20)
        #expect(small.count == 20 && small.allSatisfy { $0.plain.count <= 40 })
        #expect(small.contains { $0.plain.contains("Distance") } == without.contains { $0.plain.contains("Distance") })
        let none = TerminalScreen.lines(status: SampleStatuses.running(), columns: 80, rows: 40)
        #expect(!none.contains { $0.plain.contains("♪") })
    }
}

@Suite("KeyHandler: music keys")
struct MusicKeyTests {
    @Test("m and > go to the music player, never to the session; a pending stop question swallows them")
    func musicKeys() {
        var keys = KeyHandler()
        #expect(keys.handle(Array("m>M".utf8), stage: .running).isEmpty)
        #expect(keys.takeMusicKeys() == [.playPause, .next, .playPause])
        #expect(keys.takeMusicKeys().isEmpty, "taken once")
        #expect(keys.handle(Array("qm".utf8), stage: .running).isEmpty)
        #expect(keys.takeMusicKeys().isEmpty, "the key after q only cancels the question")
        #expect(keys.handle(Array("n".utf8), stage: .running) == [.skip])
    }
}
