import ArgumentParser
import RunWalkCore
import RunWalkIO
import RunWalkStore

struct RecoverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recover",
        abstract: "Close sessions left open by a crash, with the summary of what was recorded.",
        discussion: "With --salvage, copy every session that can still be read from a damaged database into a new one.")

    @Flag(name: .long, help: "Copy every readable session of a damaged database into a new one (the damaged file is kept beside it).")
    var salvage = false

    func run() throws {
        let location = StoreAccess.location
        guard location.databaseExists else {
            Terminal.out("Nothing to recover: no sessions recorded yet.")
            return
        }
        if salvage { return try runSalvage(location) }
        let store: RunWalkStore
        do {
            guard let opened = try RunWalkStore.openIfPresent(location: location, options: StoreAccess.options) else { return }
            store = opened
            let check = try store.quickCheck()
            if check != "ok" { throw StoreError.damaged(path: location.databasePath, finding: check) }
        } catch let error as StoreError {
            // Say why it cannot be opened, never "no sessions recorded yet".
            throw StoreAccess.failure(error, store: nil)
        }
        let recovered: [RunWalkStore.Recovered]
        do {
            recovered = try store.recoverAbandonedSessions()
        } catch let error as StoreError {
            throw StoreAccess.failure(error, store: store)
        }
        if recovered.isEmpty { Terminal.out("Nothing to recover: no session was left open.") }
        for session in recovered { Terminal.out(StoreAccess.describe(session)) }
    }

    private func runSalvage(_ location: StoreLocation) throws {
        let result: StoreSalvage.Result
        do {
            result = try StoreSalvage.run(location: location)
        } catch let error as StoreError {
            throw UserFacingError.runtime(error.description)
        }
        guard let damagedCopy = result.damagedCopy else {
            // Sound: nothing was moved; only sessions from fallback databases were merged into it.
            let merged = result.fromFallback > 0
                ? "; merged \(result.fromFallback) session\(result.fromFallback == 1 ? "" : "s") recorded in fallback databases into it"
                    + (result.lost > 0 ? " (\(result.lost) could not be read)" : "")
                : "; nothing was changed"
            Terminal.out("\(UserText.path(location.databasePath)) is sound (quick_check: ok): nothing to salvage\(merged)")
            return
        }
        let fallback = result.fromFallback > 0 ? " (\(result.fromFallback) recorded in fallback databases)" : ""
        let partly = result.partly > 0 ? ", \(result.partly) of them in part (the rows on damaged pages are lost)" : ""
        Terminal.out("Salvaged \(result.saved) session\(result.saved == 1 ? "" : "s")\(fallback)\(partly), lost \(result.lost); "
                     + "\(UserText.path(location.databasePath)) is the new database, the damaged one is kept as \(UserText.path(damagedCopy))")
    }
}
