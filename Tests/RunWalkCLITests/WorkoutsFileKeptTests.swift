import Foundation
import Testing

/// `runwalk workouts add|update|rename|rm|import` change workouts.txt one line at a time: the
/// runner's comments, blank lines and order stay as written (the app's pages edit it the same way).
@Suite("runwalk workouts keeps the file's comments and order (end to end)")
struct WorkoutsFileKeptTests {
    @Test("each change touches its own line only")
    func commentsKept() throws {
        let folder = try TemporaryDataFolder()
        let config = folder.folders.configFolder.appendingPathComponent("runwalk")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let file = config.appendingPathComponent("workouts.txt")
        let original = """
            # My workouts: tempo on Tuesdays
            tempo = 10m warmup, 5x(3m run, 2m walk)

            # hills after the long run
            hills = 5m warmup, 6x(1m run, 2m walk)

            """
        try original.write(to: file, atomically: true, encoding: .utf8)
        func text() -> String { (try? String(contentsOf: file, encoding: .utf8)) ?? "" }

        #expect(try folder.run(["workouts", "add", "easy", "20m walk"]).status == 0)
        #expect(try folder.run(["workouts", "update", "Hills", "5m warmup, 8x(1m run, 2m walk)"]).status == 0)
        #expect(try folder.run(["workouts", "rename", "tempo", "tuesday"]).status == 0)
        let importFile = folder.url.appendingPathComponent("more.txt")
        try "easy = 25m walk\nlong = 60m run\n".write(to: importFile, atomically: true, encoding: .utf8)
        let imported = try folder.run(["workouts", "import", importFile.path, "--replace"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try folder.run(["workouts", "rm", "long"]).status == 0)

        #expect(text() == """
            # My workouts: tempo on Tuesdays
            tuesday = 10m warmup, 5x(3m run, 2m walk)

            # hills after the long run
            hills = 5m warmup, 8x(1m run, 2m walk)
            easy = 25m walk

            """, "workouts.txt:\n\(text())")
        let list = try folder.run(["workouts", "list"])
        #expect(list.stdout.contains("tuesday") && list.stdout.contains("easy") && !list.stdout.contains("long ="), "\(list.stdout)")
    }
}
