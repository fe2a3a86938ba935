import Foundation
import RunWalkCore
import RunWalkReport
import Testing

@Suite("TCXWriter")
struct TCXWriterTests {
    static let schema = SampleSession.schemasFolder.appendingPathComponent("TrainingCenterDatabasev2.xsd").path
    static let canValidate = Tool.find("xmllint") != nil && FileManager.default.fileExists(atPath: schema)

    @Test("sample tracks export as schema-valid TCX", .enabled(if: canValidate, "needs xmllint (scripts/test installs libxml2-utils)"),
          arguments: ["track-loop", "trail-10hz", "city-stopgo"])
    func validatesAgainstSchema(name: String) async throws {
        let session = try await SampleSession.named(name)
        let folder = try Tool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("\(name).tcx")
        try await offPool { try TCXWriter.render(session).write(to: file, atomically: true, encoding: .utf8) }
        let result = try await Tool.run(try #require(Tool.find("xmllint")), ["--noout", "--schema", Self.schema, file.path])
        #expect(result.status == 0, "xmllint: \(result.stderr)")
    }

    @Test("one lap per phase; runs Active, walks Resting; trigger by plan")
    func lapPerPhase() async throws {
        let session = try await SampleSession.named("trail-10hz")
        let counts = try await renderAndCount({ TCXWriter.render(session) }, [
            "<Lap ", "<Intensity>Resting</Intensity>", "<Intensity>Active</Intensity>",
            "<TriggerMethod>Distance</TriggerMethod>", "<Trackpoint>"])
        #expect(counts["<Lap "] == session.summary.phases.count)
        let walks = session.summary.phases.filter { $0.kind == .walk }.count
        #expect(counts["<Intensity>Resting</Intensity>"] == walks)
        #expect(counts["<Intensity>Active</Intensity>"] == session.summary.phases.count - walks)
        let distanceTriggered = session.summary.phases.filter { $0.endReason == .completed }.count
        #expect(counts["<TriggerMethod>Distance</TriggerMethod>"] == distanceTriggered)
        #expect(counts["<Trackpoint>"] == session.track.filter { $0.phaseIndex != nil }.count)
    }

    @Test("a session without phases still has one lap")
    func sessionWithoutPhases() async throws {
        var session = try await SampleSession.named("demo-short")
        session.summary.phases = []
        let noPhases = session
        let counts = try await renderAndCount({ TCXWriter.render(noPhases) }, ["<Lap ", "<Trackpoint>"])
        #expect(counts["<Lap "] == 1)
        #expect(counts["<Trackpoint>"] == session.track.count)
    }
}
