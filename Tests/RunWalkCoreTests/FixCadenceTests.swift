import Testing
@testable import RunWalkCore

@Suite("FixCadence")
struct FixCadenceTests {
    @Test("GPS lost follows the source's own rhythm: the setting at 1 Hz and 10 Hz, three intervals at one fix per 5 s",
          arguments: [(1.0, 3.0), (0.1, 3.0), (5.0, 15.0)])
    func lostAfter(interval: Double, expected: Double) {
        var cadence = FixCadence()
        #expect(cadence.lostAfterSeconds(minimum: 3) == 3, "before any fix: the setting")
        for k in 0..<40 { cadence.add(seconds: Double(k) * interval) }
        #expect(abs(cadence.lostAfterSeconds(minimum: 3) - expected) < 1e-9)
    }

    @Test("one real gap does not stretch it, and times that go backwards are ignored")
    func gapAndBackwards() {
        var cadence = FixCadence()
        for k in 0..<20 { cadence.add(seconds: Double(k)) }
        cadence.add(seconds: 120)
        cadence.add(seconds: 100)
        cadence.add(seconds: 121)
        #expect(cadence.typicalIntervalSeconds == 1)
        #expect(cadence.lostAfterSeconds(minimum: 3) == 3)
    }

    @Test("a source that slows down (a watch switching to battery mode) is followed within the window")
    func slowsDown() {
        var cadence = FixCadence(window: 9)
        for k in 0..<30 { cadence.add(seconds: Double(k)) }
        for k in 1...5 { cadence.add(seconds: 29 + 5 * Double(k)) }
        #expect(cadence.typicalIntervalSeconds == 5)
        #expect(cadence.lostAfterSeconds(minimum: 3) == 15)
    }
}
