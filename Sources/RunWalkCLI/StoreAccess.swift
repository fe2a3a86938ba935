import FoundationEssentials
import RunWalkCore
import RunWalkHost
import RunWalkIO
import RunWalkStore

/// The CLI's way to the session store (`RUNWALK_DATA_DIR`, else the XDG data folder).
enum StoreAccess {
    static var location: StoreLocation { .fromEnvironment() }
    static var options: RunWalkStore.Options { .fromEnvironment() }

    /// Opens the existing store read-only (no migration, nothing written); a missing one is a
    /// runtime error with a clear message.
    static func openExisting() throws -> RunWalkStore {
        do {
            guard let store = try RunWalkStore.openForReading(location: location, options: options) else {
                throw UserFacingError.runtime(StoreError.noDatabase(location.databasePath).description)
            }
            return store
        } catch let error as StoreError {
            throw failure(error, store: nil)
        }
    }

    /// Opens the existing store to change it (`session rm|rename|note`); a missing one is a
    /// runtime error with a clear message.
    static func openExistingForWriting() throws -> RunWalkStore {
        do {
            guard let store = try RunWalkStore.openIfPresent(location: location, options: options) else {
                throw UserFacingError.runtime(StoreError.noDatabase(location.databasePath).description)
            }
            return store
        } catch let error as StoreError {
            throw failure(error, store: nil)
        }
    }

    /// The user's message for a store error; a damaged file is checked (`quick_check`) and the
    /// way out named.
    static func failure(_ error: StoreError, store: RunWalkStore?) -> UserFacingError {
        guard error.isCorrupt else { return .runtime(error.description) }
        let found: String
        do {
            let check = try (store ?? RunWalkStore.openForReading(location: location, options: options))?.quickCheck() ?? "no database"
            found = "quick_check: " + UserText.printable(check.split(separator: "\n").first ?? "", limit: 120)
        } catch let error as StoreError {
            // quick_check itself may stop at the damage; its error is the finding.
            if case .sqlite(let failure, _) = error { found = "quick_check: " + failure.description } else { found = "quick_check: " + error.description }
        } catch {
            found = "quick_check: " + FileErrorText.reason(error)
        }
        return .runtime("\(UserText.path(location.databasePath)) is damaged (\(found)); "
                        + "new sessions are recorded elsewhere; `runwalk recover --salvage` copies every readable session into a new database")
    }

    /// Fails when the database was written by a newer RunWalk (naming both versions); anything
    /// else (no database, a damaged one) is left for the command to meet.
    static func refuseNewerStore() throws {
        do {
            _ = try RunWalkStore.openForReading(location: location, options: options)
        } catch let error as StoreError {
            if case .newerVersion = error { throw UserFacingError.runtime(error.description) }
        }
    }

    /// Says (once, on standard error) how many sessions wait in fallback databases, recorded
    /// while the store was damaged, and how they join the list.
    static func warnAboutFallbacks() {
        let waiting = StoreSalvage.fallbackSessionCount(location)
        guard waiting > 0 else { return }
        Terminal.warning("runwalk: \(waiting) session\(waiting == 1 ? " was" : "s were") recorded in fallback databases in "
                         + "\(UserText.path(location.directory)) while the store was damaged and \(waiting == 1 ? "is" : "are") not listed here; "
                         + "`runwalk recover --salvage` merges them into the store")
    }

    /// Runs at the start of every command: closes sessions a crash left open and says so.
    /// Never stops the command: a store that cannot be opened is left for the command to report.
    static func recoverAtStartup() {
        let report = SessionService.recoverAbandoned()
        for recovered in report.recovered { Terminal.warning(describe(recovered)) }
        if let problem = report.problem { Terminal.warning("runwalk: warning: " + problem) }
    }

    /// One line telling the runner about a recovered session.
    static func describe(_ recovered: RunWalkStore.Recovered) -> String {
        let s = recovered.summary
        return "runwalk: recovered session \(recovered.info.id) (\(recovered.info.workout)), interrupted by a crash: "
            + "\(recovered.fixes) fixes, \(SummaryText.distance(s.distanceMetres, s.units)) in \(TimeText.clock(s.durationSeconds)); "
            + "see `runwalk report \(recovered.info.id)`"
    }
}
