import Testing
@testable import RunWalkTerminal

@Suite struct FramePainterTests {
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func firstFrameDrawsEveryRowThenOnlyChanges() {
        var painter = FramePainter()
        let first = text(painter.paint(["a", "b", "c"], columns: 10, rows: 3, forceAll: false))
        #expect(first == "\u{1B}[1;1H\u{1B}[0m\u{1B}[2Ka\u{1B}[2;1H\u{1B}[0m\u{1B}[2Kb\u{1B}[3;1H\u{1B}[0m\u{1B}[2Kc")
        #expect(painter.paint(["a", "b", "c"], columns: 10, rows: 3, forceAll: false).isEmpty, "nothing changed")
        #expect(text(painter.paint(["a", "B", "c"], columns: 10, rows: 3, forceAll: false)) == "\u{1B}[2;1H\u{1B}[0m\u{1B}[2KB")
    }

    @Test func aResizeOrForceRedrawsEveryRowWithoutClearingTheScreen() {
        var painter = FramePainter()
        _ = painter.paint(["a", "b"], columns: 10, rows: 2, forceAll: false)
        let resized = text(painter.paint(["a", "b", "c"], columns: 12, rows: 3, forceAll: false))
        #expect(resized.contains("\u{1B}[1;1H") && resized.contains("\u{1B}[3;1H"))
        #expect(!resized.contains("\u{1B}[2J"), "ED 2 puts the screen in tmux's history")
        let forced = text(painter.paint(["a", "b", "c"], columns: 12, rows: 3, forceAll: true))
        #expect(forced.contains("\u{1B}[1;1H") && forced.contains("\u{1B}[2;1H") && forced.contains("\u{1B}[3;1H"))
    }
}
