import Foundation
import RunWalkCore
import RunWalkReport
import Testing

/// A recorded session exported and replayed as it is: the same distance within 0.5 %, the same
/// duration and phases (issue 17). city-stopgo has lost-signal gaps the session bridged (GPX
/// marks them) and stops where the receiver's speed matters (GPX and TCX carry it).
@Suite("Export round trip")
struct ExportRoundTripTests {
    // Not trail-10hz: its distance phases make the total equal by construction.
    @Test("exported GPX, TCX and FIT, replayed, give the same distance within 0.5 % and the same duration",
          arguments: ["track-loop", "city-stopgo"], ["gpx", "tcx", "fit"])
    func sameDistance(name: String, format: String) async throws {
        let original = try await SampleSession.named(name)
        let spec = try #require(SampleSession.workouts[name])
        let folder = try Tool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("\(name).\(format)")
        try await SampleSession.export(original, as: format, to: file)
        let replayed = try await SampleSession.replay(path: file.path, workout: spec)
        let ratio = replayed.summary.distanceMetres / original.summary.distanceMetres
        #expect(abs(ratio - 1) < 0.005, "original \(original.summary.distanceMetres) m, replayed \(replayed.summary.distanceMetres) m")
        #expect(replayed.summary.durationSeconds == original.summary.durationSeconds)
        #expect(replayed.summary.phases.count == original.summary.phases.count)
        #expect(replayed.track.count == original.track.count, "every exported point read back")
    }
}
