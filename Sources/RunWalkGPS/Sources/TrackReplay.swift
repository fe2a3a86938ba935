import RunWalkCore
import RunWalkRuntime

extension SessionLoop {
    /// Replays a recorded track through the session loop on the track's own clock: as fast as
    /// the machine can, or paced at `speed` times real time. `replay` is this and nothing more.
    public func replay(track path: String, speed: Double? = nil, trackIndex: Int? = nil,
                       control: SessionControl = SessionControl(), hooks: Hooks = Hooks()) async -> Result {
        var loop = self
        loop.settings.clock = .track
        loop.settings.trackPace = speed
        loop.readsSourceToEnd = true
        return await loop.run(source: NMEAFileSource(path: path, speed: speed, trackIndex: trackIndex), clock: ContinuousClock(),
                              control: control, hooks: hooks)
    }

    /// A replay's loop: the workout starts at the track's first epoch, with no countdown.
    public static func replaying(_ workout: Workout, options: SessionOptions = SessionOptions(),
                                 script: [ScriptedCommand] = [], autoPause: Bool = false) -> SessionLoop {
        SessionLoop(workout: workout, options: options,
                    settings: SessionDriver.Settings(start: .now, clock: .track, autoPause: autoPause, script: script))
    }
}
