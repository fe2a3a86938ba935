import RunWalkCore
import RunWalkDesktop
import RunWalkRuntime
import Testing

@Suite("PlayerState: a session status as MPRIS shows it")
struct PlayerStateTests {
    @Test("a running time phase: Playing, the title, the phase's length and the position in it")
    func running() {
        let state = PlayerState(runningStatus())
        #expect(state.playbackStatus == "Playing")
        #expect(state.title == "Run 3 of 5 · 1:12 left")
        #expect(state.lengthMicroseconds == 90_000_000)
        #expect(state.positionMicroseconds == 18_000_000)
        #expect(state.trackID == "/org/mpris/MediaPlayer2/runwalk/phase/2")
    }

    @Test("waiting, paused and the end")
    func stages() {
        var status = runningStatus(paused: true)
        #expect(PlayerState(status).playbackStatus == "Paused")
        status.stage = .waitingForFix
        #expect(PlayerState(status).playbackStatus == "Paused" && PlayerState(status).title == "Waiting for GPS")
        status.stage = .stopped
        #expect(PlayerState(status).playbackStatus == "Stopped" && PlayerState(status).title == "Workout stopped")
    }

    @Test("only the countdown changed: signalled at most once a second; a new phase or a pause: at once")
    func countdownOnly() {
        let first = PlayerState(runningStatus(elapsed: 18))
        #expect(!PlayerState(runningStatus(elapsed: 19)).changesMoreThanCountdown(from: first))
        #expect(PlayerState(runningStatus(elapsed: 19, paused: true)).changesMoreThanCountdown(from: first))
        #expect(PlayerState(runningStatus(index: 3, kind: .walk, planned: 60, elapsed: 0)).changesMoreThanCountdown(from: first))
    }
}
