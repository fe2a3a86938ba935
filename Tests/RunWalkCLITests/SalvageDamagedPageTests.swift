import Foundation
import RunWalkStore
import Testing

/// Issue 31: "Salvage what can be read". A session whose fixes meet one damaged page of the
/// database keeps every fix on the pages around it, instead of being lost whole.
@Suite("recover --salvage reads around a damaged page (end to end)", .serialized)
struct SalvageDamagedPageTests {
    /// `sqlite3 DATABASE SQL`'s output (the system's shell, reading the file as another program would).
    func sqlite(_ folder: TemporaryDataFolder, _ sql: String) throws -> String {
        let result = try folder.shell("sqlite3 \"$RUNWALK_DATA_DIR/runwalk.sqlite\" \"\(sql)\"")
        guard result.status == 0 else { throw HardeningTestError(message: "sqlite3 \(sql): \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("one damaged page of fixes loses only that page's rows; the session and its other fixes are saved")
    func damagedFixesPage() throws {
        let folder = try TemporaryDataFolder()
        try folder.recordDemo()
        let loop = try folder.run(["replay", Sample.loop, "--workout", Sample.loopWorkout])
        try #require(loop.status == 0, "\(loop.stderr)")
        _ = try sqlite(folder, "PRAGMA wal_checkpoint(TRUNCATE)")
        let before = try #require(Int(try sqlite(folder, "SELECT count(*) FROM fixes")))
        let pageSize = try #require(Int(try sqlite(folder, "PRAGMA page_size")))
        // The fixes table's leaf pages (SQLite's dbstat); the middle one of the second session's.
        let leaves = try sqlite(folder, "SELECT pageno FROM dbstat WHERE name = 'fixes' AND pagetype = 'leaf' ORDER BY pageno")
            .split(separator: "\n").compactMap { Int($0) }
        try #require(leaves.count >= 8, "fixes span \(leaves.count) leaf pages")
        let damaged = leaves[leaves.count * 2 / 3]
        let perPage = before / leaves.count

        // Overwrite that page with garbage, as a failing disk or a stray write would.
        let descriptor = open(folder.location.databasePath, O_WRONLY)
        try #require(descriptor >= 0)
        let garbage = [UInt8](repeating: 0xA5, count: pageSize)
        let written = garbage.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, pageSize, off_t((damaged - 1) * pageSize)) }
        close(descriptor)
        try #require(written == pageSize)
        let history = try folder.run(["history"])
        #expect(history.status != 0 || history.stdout.contains("2"), "history reads or fails: \(history.stderr)")

        let salvage = try folder.run(["recover", "--salvage"])
        #expect(salvage.status == 0, "\(salvage.stdout)\(salvage.stderr)")
        #expect(salvage.stdout.contains("Salvaged 2 sessions, 1 of them in part"), "\(salvage.stdout)")
        #expect(salvage.stdout.contains("lost 0"), "\(salvage.stdout)")
        let after = try #require(Int(try sqlite(folder, "SELECT count(*) FROM fixes")))
        // At most the damaged page's rows (and a page's worth of slack for uneven pages) are gone.
        #expect(after < before, "the damaged page's rows cannot all have been read: \(after) of \(before)")
        #expect(after >= before - 2 * perPage, "only one page's rows may be lost: \(after) of \(before) (about \(perPage) a page)")
        #expect(try sqlite(folder, "PRAGMA integrity_check") == "ok")
        let store = try #require(try RunWalkStore.openForReading(location: folder.location))
        let sessions = try store.sessions()
        #expect(sessions.count == 2)
        let listed = try folder.run(["history"])
        #expect(listed.status == 0, "\(listed.stderr)")
    }
}
