import Foundation
import Testing

/// `runwalk` on a database the GRDB 7.10 build recorded (Tests/Fixtures/grdb-7.10): history,
/// records, reports, plan status and exports print, byte for byte, what that build printed.
@Suite("runwalk on a database written by the GRDB build", .serialized)
struct GRDBDatabaseCommandTests {
    static let fixture = RunWalkBinary.repositoryRoot.appendingPathComponent("Tests/Fixtures/grdb-7.10")

    /// A data folder holding a copy of the fixture, and the environment the fixture's outputs were made in.
    static func folder() throws -> (TemporaryDataFolder, [String: String]) {
        let folder = try TemporaryDataFolder("runwalk-grdb-fixture")
        let database = folder.location.databasePath
        try FileManager.default.copyItem(atPath: fixture.appendingPathComponent("runwalk.sqlite").path, toPath: database)
        chmod(database, 0o600)
        let config = folder.url.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        chmod(config.path, 0o700)
        return (folder, ["RUNWALK_CONFIG_DIR": config.path, "RUNWALK_TODAY": "2026-04-21"])
    }

    static func expected(_ name: String) throws -> String {
        try String(contentsOf: fixture.appendingPathComponent(name), encoding: .utf8)
    }

    @Test("history, records, reports and plan status are what the old build printed", arguments: [
        (["history"], "history.txt"),
        (["history", "--records"], "records.txt"),
        (["report", "1"], "report1.txt"),
        (["report", "2"], "report2.txt"),
        (["report", "1", "--format", "json"], "report1.json"),
        (["report", "2", "--format", "json"], "report2.json"),
        (["plan", "status"], "plan.txt"),
        (["plan", "status", "--json"], "plan.json"),
    ])
    func sameOutput(arguments: [String], file: String) throws {
        let (folder, environment) = try Self.folder()
        let output = try folder.run(arguments, extraEnvironment: environment)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == (try Self.expected(file)), "runwalk \(arguments.joined(separator: " "))")
    }

    @Test("GPX and TCX exports have the old build's bytes", arguments: [
        ("gpx", "ce65b2bff1fc349324cd4a626ca3acf5347a0a98ba34fb035cafa0c34b53c525"),
        ("tcx", "5cc4478b62c8658ef4b4e45efd521dfbd6f0d32c0205ca3253266f92a9dd3b00"),
    ])
    func sameExport(format: String, sha256: String) throws {
        let (folder, environment) = try Self.folder()
        let file = folder.url.appendingPathComponent("session-2.\(format)")
        let output = try folder.run(["export", "2", "--format", format, "-o", file.path], extraEnvironment: environment)
        #expect(output.status == 0, "\(output.stderr)")
        let result = try RunWalkBinary.collect(Launch([file.path], executable: "/usr/bin/sha256sum"))
        #expect(result.stdout.split(separator: " ").first.map(String.init) == sha256)
    }
}
