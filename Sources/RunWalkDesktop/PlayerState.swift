import RunWalkCore
import RunWalkRuntime

/// What the MPRIS player shows for one session status: pure, so it is tested without a bus.
public struct PlayerState: Sendable, Equatable {
    /// `Playing`, `Paused` or `Stopped`.
    public var playbackStatus: String
    /// `mpris:trackid`: one track per phase.
    public var trackID: String
    /// `xesam:title`, e.g. "Run 3 of 8 · 1:12 left".
    public var title: String
    /// `xesam:artist`: the workout.
    public var artist: String
    /// `mpris:length`: the phase's planned length, microseconds (nil for distance phases).
    public var lengthMicroseconds: Int64?
    /// `Position`: time into the phase, microseconds.
    public var positionMicroseconds: Int64

    /// The state for `status`.
    public init(_ status: SessionStatus) {
        artist = status.workout
        positionMicroseconds = Int64((max(0, status.phaseElapsedSeconds) * 1_000_000).rounded())
        lengthMicroseconds = nil
        trackID = "/org/mpris/MediaPlayer2/runwalk/idle"
        switch status.stage {
        case .waitingForFix:
            playbackStatus = "Paused"
            title = "Waiting for GPS"
        case .startCountdown:
            playbackStatus = "Playing"
            title = "Starting in \(status.startCountdownSeconds ?? 0)"
        case .completed, .stopped:
            playbackStatus = "Stopped"
            title = status.stage == .completed ? "Workout complete" : "Workout stopped"
            trackID = "/org/mpris/MediaPlayer2/runwalk/end"
        case .running, .paused:
            playbackStatus = status.paused ? "Paused" : "Playing"
            guard let phase = status.phase else {
                title = "RunWalk"
                return
            }
            trackID = "/org/mpris/MediaPlayer2/runwalk/phase/\(phase.index)"
            title = PhaseTitle.title(kind: phase.kind, index: phase.index, count: status.phaseCount,
                                     remainingSeconds: status.phaseRemainingSeconds, remainingMetres: status.phaseRemainingMetres)
            // The heart rate where there is room: lock screens show a title of about 40 characters.
            if let bpm = status.heartRateBPM, title.count + 10 <= 40 { title += " · \(bpm) bpm" }
            lengthMicroseconds = phase.plannedSeconds.map { Int64(($0 * 1_000_000).rounded()) }
        }
    }

    /// Whether going from `old` to this state changes more than the countdown in the title
    /// (and the position): such changes are signalled at once, countdown ones at most once a second.
    public func changesMoreThanCountdown(from old: PlayerState?) -> Bool {
        guard let old else { return true }
        return old.playbackStatus != playbackStatus || old.trackID != trackID || old.artist != artist
            || old.lengthMicroseconds != lengthMicroseconds
    }
}
