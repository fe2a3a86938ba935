import Testing
@testable import RunWalkCore

@Suite("SplitTracker")
struct SplitTrackerTests {
    @Test("the crossing time is interpolated between samples, not snapped to one")
    func interpolated() {
        var tracker = SplitTracker(unitMetres: 1000)
        #expect(tracker.add(elapsedSeconds: 300, distanceMetres: 990).isEmpty)
        let splits = tracker.add(elapsedSeconds: 301, distanceMetres: 1010)
        #expect(splits.count == 1)
        #expect(abs((splits.first?.elapsedSeconds ?? 0) - 300.5) < 1e-9)
        #expect(abs((splits.first?.paceSecondsPerKm ?? 0) - 300.5) < 1e-9)
    }

    @Test("a jump over two units (after a gap) completes both, each at its own time")
    func twoAtOnce() {
        var tracker = SplitTracker(unitMetres: 1000)
        _ = tracker.add(elapsedSeconds: 0, distanceMetres: 0)
        _ = tracker.add(elapsedSeconds: 100, distanceMetres: 500)
        let splits = tracker.add(elapsedSeconds: 400, distanceMetres: 2000)
        #expect(splits.map(\.index) == [1, 2])
        #expect(abs(splits[0].elapsedSeconds - 200) < 1e-9)
        #expect(abs(splits[1].elapsedSeconds - 400) < 1e-9)
        #expect(abs(splits[1].splitSeconds - 200) < 1e-9)
    }

    @Test("mile splits for imperial units")
    func miles() {
        var tracker = SplitTracker(unitMetres: 1609.344)
        _ = tracker.add(elapsedSeconds: 0, distanceMetres: 0)
        let splits = tracker.add(elapsedSeconds: 1000, distanceMetres: 3218.688)
        #expect(splits.count == 2)
        #expect(abs(splits[0].elapsedSeconds - 500) < 1e-9)
        #expect(abs(splits[0].paceSecondsPerKm - 500 / 1.609344) < 1e-9)
    }

    @Test("distance that goes backwards completes nothing and is not counted twice")
    func backwards() {
        var tracker = SplitTracker(unitMetres: 1000)
        _ = tracker.add(elapsedSeconds: 0, distanceMetres: 995)
        #expect(tracker.add(elapsedSeconds: 1, distanceMetres: 990).isEmpty)
        let splits = tracker.add(elapsedSeconds: 2, distanceMetres: 1005)
        #expect(splits.count == 1)
        #expect(abs(splits[0].elapsedSeconds - 1.5) < 1e-9)
    }
}
