import FoundationEssentials
import RunWalkRuntime

/// The store's connections, as WAL mode allows them: one writer, used by one thread at a time
/// (the recorder's writer thread, or a command), and read-only connections for reads, which
/// never wait for the writer's commits nor hold it up. A read-only store has no writer.
final class StorePool: @unchecked Sendable {
    private let writer: SQLiteConnection?
    private let writerLock = Lock()
    private let readerLock = Lock()
    private var idleReaders: [SQLiteConnection] = []
    private let openReader: () throws -> SQLiteConnection

    /// Readers kept open between reads; more are opened while reads overlap and closed after.
    static let idleReadersKept = 2

    /// A pool around `writer` (nil: read-only), opening readers with `openReader`.
    init(writer: SQLiteConnection?, openReader: @escaping () throws -> SQLiteConnection) {
        self.writer = writer
        self.openReader = openReader
    }

    /// Runs `body` in a write transaction (BEGIN IMMEDIATE), committed when it returns and rolled
    /// back when it throws.
    func write<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try writeWithoutTransaction { try $0.transaction(.immediate, body) }
    }

    /// Runs `body` on the writer outside a transaction (checkpoints, ATTACH, its own savepoints).
    func writeWithoutTransaction<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        guard let writer else {
            throw SQLiteError(extendedCode: 8, message: "attempt to write a readonly database")
        }
        return try writerLock.withLock { try body(writer) }
    }

    /// Runs `body` in a read transaction on a reader: one snapshot of the database for all its
    /// queries, whatever the writer commits meanwhile.
    func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let reader = try takeReader()
        defer { giveBack(reader) }
        return try reader.transaction(.deferred, body)
    }

    /// Closes the readers kept open between reads (their page caches go with them).
    func closeIdleReaders() {
        readerLock.withLock { idleReaders.removeAll() }
    }

    private func takeReader() throws -> SQLiteConnection {
        if let reader = readerLock.withLock({ idleReaders.popLast() }) { return reader }
        return try openReader()
    }

    private func giveBack(_ reader: SQLiteConnection) {
        // A reader left inside a transaction (its ROLLBACK failed) would pin an old snapshot: drop it.
        guard !reader.inTransaction else { return }
        readerLock.withLock {
            if idleReaders.count < Self.idleReadersKept { idleReaders.append(reader) }
        }
    }
}
