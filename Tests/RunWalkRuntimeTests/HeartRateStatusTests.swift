import Foundation
import RunWalkCore
import RunWalkRuntime
import Testing

/// A live strap's inputs through the driver: the status's `hr` and `hr_zone`, none while it is lost
/// or once its last sample is stale, and the summary's heart rate (issue 32).
@Suite("Heart rate in the status")
struct HeartRateStatusTests {
    @Test("hr and hr_zone follow the strap; lost or stale shows none")
    func status() throws {
        var driver = SessionDriver(workout: try Workout(parsing: "2m run"), settings: .init(start: .now))
        _ = driver.begin(now: .zero, utc: nil)
        #expect(driver.status(at: .seconds(0.5)).heartRateBPM == nil)
        _ = driver.heartRate(.measurement(HeartRateMeasurement(rawBPM: 165, contact: .detected)), now: .seconds(1))
        let status = driver.status(at: .seconds(1.5))
        #expect(status.heartRateBPM == 165 && status.heartRateZone == 4)
        let json = String(decoding: try JSONEncoder().encode(status), as: UTF8.self)
        #expect(json.contains("\"hr\":165") && json.contains("\"hr_zone\":4"))
        #expect(driver.status(at: .seconds(20)).heartRateBPM == nil, "a sample 19 s old is stale")
        _ = driver.heartRate(.measurement(HeartRateMeasurement(rawBPM: 150)), now: .seconds(21))
        let output = driver.heartRate(.lost(reason: "gone"), now: .seconds(22))
        #expect(output.events.contains { if case .happened(let r) = $0 { r.kind == .heartRateLost } else { false } })
        #expect(driver.status(at: .seconds(22.5)).heartRateBPM == nil, "lost: no heart rate shown")
        _ = driver.command(.stop, now: .seconds(30))
        #expect(driver.summary().heartRateMax == 165)
    }
}
