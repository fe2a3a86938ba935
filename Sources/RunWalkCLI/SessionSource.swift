import FoundationEssentials
import RunWalkReport
import RunWalkStore

extension StoreAccess {
    /// A recorded session's summary and track (for `export` and `report --format html`);
    /// `session` is `last` or a number from `runwalk history`.
    static func loadRecorded(_ session: String) throws -> RecordedSession {
        let reference: SessionReference
        do {
            reference = try SessionReference(parsing: session)
        } catch let error as StoreError {
            throw UserFacingError.input(error.description)
        }
        let store = try openExisting()
        do {
            let stored = try store.loadSession(reference)
            return RecordedSession(summary: stored.summary, track: stored.trackPoints, heartRate: stored.heartRate)
        } catch let error as StoreError {
            throw failure(error, store: store)
        }
    }
}
