import ArgumentParser
import RunWalkStore

struct RecoverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recover",
        abstract: "Close sessions left open by a crash, with the summary of what was recorded.")

    func run() throws {
        guard let store = try? RunWalkStore.openIfPresent(location: StoreAccess.location, options: StoreAccess.options) else {
            Terminal.out("Nothing to recover: no sessions recorded yet.")
            return
        }
        let recovered: [RunWalkStore.Recovered]
        do {
            recovered = try store.recoverAbandonedSessions()
        } catch let error as StoreError {
            throw UserFacingError.runtime(error.description)
        }
        if recovered.isEmpty { Terminal.out("Nothing to recover: no session was left open.") }
        for session in recovered { Terminal.out(StoreAccess.describe(session)) }
    }
}
