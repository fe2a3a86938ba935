import Foundation
import Testing
@testable import RunWalkStore

/// The writer's pacing, alone: given the times, when it commits, retries, checkpoints and sleeps.
@Suite("CommitSchedule")
struct CommitScheduleTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func schedule() -> CommitSchedule {
        var settings = SessionRecorder.Settings()
        settings.commitIntervalSeconds = 0.75
        settings.retryIntervalSeconds = 1
        settings.checkpointIntervalSeconds = 10
        return CommitSchedule(settings, now: t0)
    }

    static func until(_ wait: WriterHandOver.Wait) -> Date? {
        if case .until(let date) = wait { return date }
        return nil
    }

    static func idleWake(_ wait: WriterHandOver.Wait) -> Date?? {
        if case .idle(let wake) = wait { return .some(wake) }
        return nil
    }

    @Test("rows that wake it soon after a commit are gathered until the interval is over; later ones go at once")
    func gathering() {
        var schedule = Self.schedule()
        #expect(schedule.gatheringDeadline(wokenByRows: true, at: Self.t0) == nil, "no commit yet")
        schedule.committed(at: Self.t0, rows: true)
        #expect(schedule.gatheringDeadline(wokenByRows: true, at: Self.t0 + 0.2) == Self.t0 + 0.75)
        #expect(schedule.gatheringDeadline(wokenByRows: false, at: Self.t0 + 0.2) == nil, "a deadline or a full queue: commit")
        #expect(schedule.gatheringDeadline(wokenByRows: true, at: Self.t0 + 0.75) == nil)
    }

    @Test("after a tick: a backlog retries at the retry interval; rows that keep coming keep the pace; else idle")
    func nextWait() {
        var schedule = Self.schedule()
        let now = Self.t0 + 5
        schedule.refused(at: now)
        #expect(!schedule.mayWrite(at: now + 0.5))
        #expect(schedule.mayWrite(at: now + 1))
        #expect(Self.until(schedule.nextWait(at: now, backlog: true, committed: false, wokenByRows: false, tookRows: true)) == now + 1)
        schedule.retryAtOnce(now)
        #expect(Self.until(schedule.nextWait(at: now, backlog: true, committed: false, wokenByRows: false, tookRows: true)) == now + 0.75)
        #expect(Self.until(schedule.nextWait(at: now, backlog: false, committed: true, wokenByRows: false, tookRows: true)) == now + 0.75)
        #expect(Self.idleWake(schedule.nextWait(at: now, backlog: false, committed: true, wokenByRows: true, tookRows: true)) == .some(nil),
                "woken by rows and committed: sleeps until the next rows")
    }

    @Test("a checkpoint is due every interval while there is something new, and the idle writer wakes for it")
    func checkpoints() {
        var schedule = Self.schedule()
        #expect(schedule.checkpointDue == nil)
        let early = schedule.takeCheckpointTurn(at: Self.t0 + 20)
        #expect(!early, "nothing committed")
        schedule.committed(at: Self.t0 + 1, rows: false)
        #expect(schedule.checkpointDue == nil, "the session's row alone")
        schedule.committed(at: Self.t0 + 2, rows: true)
        #expect(schedule.checkpointDue == Self.t0 + 10)
        #expect(Self.idleWake(schedule.nextWait(at: Self.t0 + 2, backlog: false, committed: true, wokenByRows: true, tookRows: true))
                == .some(Self.t0 + 10))
        let beforeInterval = schedule.takeCheckpointTurn(at: Self.t0 + 5)
        #expect(!beforeInterval)
        let atInterval = schedule.takeCheckpointTurn(at: Self.t0 + 10)
        #expect(atInterval)
        #expect(schedule.checkpointDue == Self.t0 + 20, "a failed checkpoint is tried again an interval later")
        schedule.checkpointed()
        #expect(schedule.checkpointDue == nil)
    }
}
