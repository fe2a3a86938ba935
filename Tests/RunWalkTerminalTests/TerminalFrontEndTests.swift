#if canImport(Glibc)
import Glibc
#endif
import Testing
import Synchronization
@testable import RunWalkTerminal
import RunWalkRuntime

/// Set by the test's own SIGHUP handler, to see that the front end hands the signal on.
let previousHandlerRan = Atomic<Int>(0)

/// The front end against a real pseudo-terminal: what it draws, the keys it turns into commands,
/// and the terminal it gives back. One at a time: the terminal restore is process-wide.
@Suite(.serialized) struct TerminalFrontEndTests {
    static let environment = ["TERM": "xterm-256color"]
    static let enter = "\u{1B}[?1049h"
    static let leave = "\u{1B}[?1049l"

    @Test func drawsTakesKeysAndRestores() async throws {
        let pty = try PseudoTerminal(columns: 40, rows: 20)
        let before = pty.localFlags, inputBefore = pty.inputFlags
        #expect(before & tcflag_t(ECHO | ICANON) == tcflag_t(ECHO | ICANON), "a fresh pty is cooked")
        let control = SessionControl()
        let collector = CommandCollector(control.commands)
        control.publish(SampleStatuses.running())
        let screen = try #require(TerminalFrontEnd.start(control: control, environment: Self.environment,
                                                         input: pty.slave, output: pty.slave))
        // Given the display is up: alternate screen, hidden cursor, the phase and the time left.
        #expect(pty.waitFor { $0.contains("RUN 3/18") && $0.contains("Next: ") && $0.contains("walk 1:00") }, "\(pty.text)")
        #expect(pty.text.hasPrefix(Self.enter + "\u{1B}[?25l"))
        #expect(pty.text.contains("\u{1B}[20;1H"), "the last row is drawn")
        #expect(!pty.text.contains("\u{1B}[21;1H"), "nothing below the last row")
        #expect(pty.text.contains("███"), "big digits")
        #expect(pty.text.contains(";41m"), "colour on")
        #expect(pty.localFlags & tcflag_t(ECHO | ICANON) == 0, "raw mode")
        #expect(pty.localFlags & tcflag_t(ISIG) != 0, "Ctrl-C still a signal")
        #expect(pty.inputFlags & tcflag_t(IXON) == 0, "Ctrl-S is a key, not a stop of the output")

        // When keys are typed, then the commands reach the session in order.
        pty.type("n")
        #expect(await collector.wait(for: 1) == ["skip"])
        pty.type(" b")
        #expect(await collector.wait(for: 3) == ["skip", "toggle", "restart"])
        var mark = pty.output.count
        pty.type("q")
        #expect(pty.waitFor(after: mark) { $0.contains("Press q again to stop") }, "the stop question")
        pty.type("q")
        #expect(await collector.wait(for: 4) == ["skip", "toggle", "restart", "stop"])

        // A new status is drawn: PAUSED.
        mark = pty.output.count
        control.publish(SampleStatuses.paused())
        #expect(pty.waitFor(after: mark) { $0.contains("PAUSED") }, "paused drawn")

        // A resize (SIGWINCH) redraws the whole screen at the new size.
        mark = pty.output.count
        pty.resize(columns: 80, rows: 24)
        // Process-directed, as the kernel sends it: test threads block signals, so raise() would not do.
        kill(getpid(), SIGWINCH)
        #expect(pty.waitFor(after: mark) { text in
            (1...24).allSatisfy { text.contains("\u{1B}[\($0);1H") } && text.contains("space pause · n skip")
        }, "every row redrawn at 80×24")

        // Then stop() gives the terminal back.
        mark = pty.output.count
        screen.stop()
        #expect(pty.waitFor(after: mark) { $0.contains(Self.leave) && $0.contains("\u{1B}[?25h") }, "left the alternate screen")
        #expect(pty.localFlags == before && pty.inputFlags == inputBefore, "termios restored")
        screen.stop()
        pty.drain()
        #expect(pty.text.components(separatedBy: Self.leave).count == 2, "restored once")
        _ = collector
    }

    @Test func unchangedStatusDrawsNothingNew() throws {
        let pty = try PseudoTerminal(columns: 40, rows: 20)
        let control = SessionControl()
        control.publish(SampleStatuses.running())
        let screen = try #require(TerminalFrontEnd.start(control: control, environment: Self.environment,
                                                         input: pty.slave, output: pty.slave))
        defer { screen.stop() }
        #expect(pty.waitFor { $0.contains("RUN 3/18") })
        // The same status again, then a changed one: only the change is drawn after the mark.
        let mark = pty.output.count
        control.publish(SampleStatuses.running())
        var changed = SampleStatuses.running()
        changed.distanceMetres = 2345
        control.publish(changed)
        #expect(pty.waitFor(after: mark) { $0.contains("Distance 2.35 km") })
        let after = String(decoding: pty.output[mark...], as: UTF8.self)
        #expect(!after.contains("RUN 3/18"), "unchanged rows are not sent again: \(after)")
    }

    @Test func aClosedTerminalDoesNotStopTheSession() async throws {
        let pty = try PseudoTerminal(columns: 40, rows: 20)
        let control = SessionControl()
        control.publish(SampleStatuses.running())
        let screen = try #require(TerminalFrontEnd.start(control: control, environment: Self.environment,
                                                         input: pty.slave, output: pty.slave))
        #expect(pty.waitFor { $0.contains("RUN 3/18") })
        // When the terminal goes away, writes and reads fail (EIO); statuses keep coming.
        pty.hangUp()
        for seconds in 0..<20 {
            var status = SampleStatuses.running()
            status.phaseRemainingSeconds = 40 - Double(seconds)
            control.publish(status)
        }
        // The session still takes commands from elsewhere, and stop() returns.
        control.send(.skip)
        var commands = control.commands.makeAsyncIterator()
        #expect(await commands.next() == .skip)
        screen.stop()
    }

    @Test func noColourWithNO_COLOR() throws {
        let pty = try PseudoTerminal(columns: 40, rows: 20)
        let control = SessionControl()
        control.publish(SampleStatuses.running())
        let screen = try #require(TerminalFrontEnd.start(control: control, environment: ["TERM": "xterm", "NO_COLOR": "1"],
                                                         input: pty.slave, output: pty.slave))
        #expect(pty.waitFor { $0.contains("RUN 3/18") })
        screen.stop()
        #expect(!pty.text.contains(";41m") && !pty.text.contains("\u{1B}[0;1"), "no colour")
    }

    @Test func fallsBackWithoutATerminal() throws {
        let control = SessionControl()
        let pty = try PseudoTerminal(columns: 40, rows: 20)
        #expect(TerminalFrontEnd.start(control: control, environment: ["TERM": "dumb"], input: pty.slave, output: pty.slave) == nil)
        #expect(TerminalFrontEnd.start(control: control, environment: [:], input: pty.slave, output: pty.slave) == nil)
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        #expect(TerminalFrontEnd.start(control: control, environment: Self.environment, input: ends[0], output: ends[1]) == nil)
        #expect(TerminalFrontEnd.start(control: control, environment: Self.environment, input: pty.slave, output: ends[1]) == nil)
        pty.drain()
        #expect(pty.output.isEmpty, "nothing drawn")
    }

    @Test func signalRestoresThenRunsTheProgramsHandler() throws {
        var mine = sigaction()
        mine.__sigaction_handler.sa_handler = { _ in previousHandlerRan.add(1, ordering: .sequentiallyConsistent) }
        var original = sigaction()
        #expect(sigaction(SIGHUP, &mine, &original) == 0)
        defer { _ = sigaction(SIGHUP, &original, nil) }

        let pty = try PseudoTerminal(columns: 40, rows: 20)
        let before = pty.localFlags
        let control = SessionControl()
        control.publish(SampleStatuses.running())
        let screen = try #require(TerminalFrontEnd.start(control: control, environment: Self.environment,
                                                         input: pty.slave, output: pty.slave))
        #expect(pty.waitFor { $0.contains("RUN 3/18") })
        let start = previousHandlerRan.load(ordering: .sequentiallyConsistent)
        kill(getpid(), SIGHUP)
        #expect(pty.waitFor { $0.contains(Self.leave) }, "restored by the signal")
        #expect(pty.waitFor { _ in previousHandlerRan.load(ordering: .sequentiallyConsistent) == start + 1 }, "the program's handler ran")
        #expect(pty.localFlags == before)
        // Nothing is drawn on the main screen after the restore, and stop() does not restore twice.
        let mark = pty.output.count
        var changed = SampleStatuses.running()
        changed.distanceMetres = 4000
        control.publish(changed)
        screen.stop()
        pty.drain()
        let after = String(decoding: pty.output[mark...], as: UTF8.self)
        #expect(!after.contains("4.00 km") && !after.contains(Self.leave), "after the restore: \(after)")
        // The handler the program had is back.
        var now = sigaction()
        _ = sigaction(SIGHUP, nil, &now)
        #expect(unsafeBitCast(now.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(mine.__sigaction_handler.sa_handler, to: Int.self))
    }
}
