import Foundation
import Testing
import RunWalkCore
import RunWalkRuntime

/// What a source says keeps it from giving positions ("gpsd has no receiver") reaches the status,
/// and goes when it is over.
@Suite("SessionDriver: the source's problem in the status")
struct SourceProblemTests {
    @Test("a problem shows in gps.problem (JSON `problem`) until it is cleared or positions arrive")
    func problemInStatus() throws {
        let workout = try Workout(parsing: "1m run, 1m walk")
        var driver = SessionDriver(workout: workout, settings: .init(start: .fix))
        _ = driver.begin(now: .zero, utc: nil)
        #expect(driver.status(at: .seconds(1)).gps.problem == nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(!String(decoding: try encoder.encode(driver.status(at: .seconds(1)).gps), as: UTF8.self).contains("problem"),
                "absent from the JSON when there is none")

        _ = driver.handle(.problem("gpsd has no receiver"), now: .seconds(1))
        let said = driver.handle(.unavailable("gpsd at localhost:2947 is running but has no receiver: …"), now: .seconds(1))
        #expect(said.messages == ["gpsd at localhost:2947 is running but has no receiver: …"])
        var status = driver.status(at: .seconds(2))
        #expect(status.stage == .waitingForFix && status.gps.state == .noFix)
        #expect(status.gps.problem == "gpsd has no receiver")
        let json = String(decoding: try encoder.encode(status.gps), as: UTF8.self)
        #expect(json.contains("\"problem\":\"gpsd has no receiver\""), "\(json)")
        let decoded = try JSONDecoder().decode(SessionStatus.self, from: try encoder.encode(status))
        #expect(decoded == status, "round trip")

        _ = driver.handle(.problem(nil), now: .seconds(3))
        #expect(driver.status(at: .seconds(3)).gps.problem == nil, "cleared by the source")

        _ = driver.handle(.problem("gpsd not reachable"), now: .seconds(4))
        let fixes = SyntheticTrack.fixes(seconds: 2) { _ in 3 }
        _ = driver.handle(.fix(fixes[0]), now: .seconds(5))
        status = driver.status(at: .seconds(5))
        #expect(status.gps.problem == nil, "a position ends it")
        #expect(status.gps.state == .fix)
    }

    @Test("an older status without `problem` still decodes")
    func olderJSON() throws {
        let json = #"{"state":"no_fix","lost_for_s":3}"#
        let gps = try JSONDecoder().decode(SessionStatus.GPS.self, from: Data(json.utf8))
        #expect(gps.problem == nil && gps.state == .noFix)
    }
}
