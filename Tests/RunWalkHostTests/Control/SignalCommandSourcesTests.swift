import Foundation
import RunWalkRuntime
import Testing
@testable import RunWalkHost
import RunWalkIO

/// Signals as commands: the mapping, and one real signal to this process.
@Suite("SignalCommandSources")
struct SignalCommandSourcesTests {
    @Test("SIGUSR1 toggles, SIGUSR2 skips, SIGINT, SIGTERM and SIGQUIT stop (and say so), others are no command")
    func mapping() {
        #expect(SignalCommandSources.command(for: SIGUSR1) == .toggle)
        #expect(SignalCommandSources.command(for: SIGUSR2) == .skip)
        #expect(SignalCommandSources.command(for: SIGINT) == .stop)
        #expect(SignalCommandSources.command(for: SIGTERM) == .stop)
        #expect(SignalCommandSources.command(for: SIGQUIT) == .stop)
        #expect(SignalCommandSources.command(for: SIGHUP) == nil)
        #expect(SignalCommandSources.command(for: SIGPIPE) == nil)
        #expect(SignalCommandSources.notice(for: SIGTERM) == "runwalk: terminated; stopping the workout")
        #expect(SignalCommandSources.notice(for: SIGINT) == "runwalk: interrupted; stopping the workout")
        #expect(SignalCommandSources.notice(for: SIGQUIT) == "runwalk: quit; stopping the workout")
        #expect(SignalCommandSources.notice(for: SIGUSR1) == nil)
        #expect(SignalCommandSources.handledSignals.sorted() == [SIGINT, SIGUSR1, SIGUSR2, SIGTERM, SIGQUIT].sorted())
    }

    @Test("a real SIGUSR2 sent to this process arrives as skip (the signal is ignored, so it cannot kill the runner)")
    func realSignal() async throws {
        let control = SessionControl()
        // Only SIGUSR2: SIGINT/SIGTERM stay as they are for the test runner.
        let (armed, arm) = AsyncStream<Void>.makeStream()
        let sources = SignalCommandSources(control: control, signals: [SIGUSR2], armed: { arm.yield() }) { _ in }
        defer { sources.cancel() }
        for await _ in armed { break }
        // A safety net, not timing: if the signal never arrives the stream ends and the test fails.
        let net = Task {
            try await Task.sleep(for: .seconds(10))
            control.finish()
        }
        defer { net.cancel() }
        #expect(kill(getpid(), SIGUSR2) == 0)
        var first: SessionCommand?
        for await command in control.commands {
            first = command
            break
        }
        #expect(first == .skip)
    }
}
