import Foundation
import RunWalkCore
import RunWalkIO
import RunWalkStore

/// The CLI's way to the session store (`RUNWALK_DATA_DIR`, else the XDG data folder).
enum StoreAccess {
    static var location: StoreLocation { .fromEnvironment() }
    static var options: RunWalkStore.Options { .fromEnvironment() }

    /// Opens the existing store for reading; a missing one is a runtime error with a clear message.
    static func openExisting() throws -> RunWalkStore {
        do {
            guard let store = try RunWalkStore.openIfPresent(location: location, options: options) else {
                throw UserFacingError.runtime(StoreError.noDatabase(location.databasePath).description)
            }
            return store
        } catch let error as StoreError {
            throw UserFacingError.runtime(error.description)
        }
    }

    /// Runs at the start of every command: closes sessions a crash left open and says so.
    /// Never stops the command: a store that cannot be opened is left for the command to report.
    static func recoverAtStartup() {
        guard let store = try? RunWalkStore.openIfPresent(location: location, options: options) else { return }
        do {
            for recovered in try store.recoverAbandonedSessions() { Terminal.warning(describe(recovered)) }
        } catch {
            Terminal.warning("runwalk: warning: could not check \(location.databasePath) for interrupted sessions: \(error)")
        }
    }

    /// One line telling the runner about a recovered session.
    static func describe(_ recovered: RunWalkStore.Recovered) -> String {
        let s = recovered.summary
        return "runwalk: recovered session \(recovered.info.id) (\(recovered.info.workout)), interrupted by a crash: "
            + "\(recovered.fixes) fixes, \(SummaryText.distance(s.distanceMetres, s.units)) in \(SummaryText.clock(s.durationSeconds)); "
            + "see `runwalk report \(recovered.info.id)`"
    }

    /// A recorder for a session, reporting store trouble on standard error.
    static func recorder(workout: Workout, options: SessionOptions, source: String) -> SessionRecorder {
        SessionRecorder(location: location, storeOptions: self.options,
                        session: .init(workout: workout, options: options, source: source),
                        warn: { Terminal.warning($0) })
    }
}
