/// Named, versioned schema migrations, recorded in the table GRDB's `DatabaseMigrator` kept
/// (`grdb_migrations`, one row per applied identifier) so that a database migrated by the
/// builds that used GRDB is neither migrated again nor refused.
struct StoreMigrator {
    /// The table of applied migrations; its name and shape are GRDB's, for existing databases.
    static let table = "grdb_migrations"

    private var migrations: [(identifier: String, migrate: (SQLiteConnection) throws -> Void)] = []

    /// Adds a migration, run after those registered before it.
    mutating func registerMigration(_ identifier: String, _ migrate: @escaping (SQLiteConnection) throws -> Void) {
        migrations.append((identifier, migrate))
    }

    /// The identifiers of the registered migrations applied to `db`, in registration order.
    func appliedMigrations(_ db: SQLiteConnection) throws -> [String] {
        let exists = try db.value(Int.self, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?", [Self.table]) ?? 0
        guard exists > 0 else { return [] }
        let applied = Set(try db.values(String.self, "SELECT identifier FROM \(Self.table)"))
        return migrations.map(\.identifier).filter(applied.contains)
    }

    /// The store version this build reads and writes: the number of its migrations. Databases
    /// carry it in `PRAGMA user_version` (0 in those made before versions were stamped).
    var version: Int { migrations.count }

    /// The version of a database written by a newer RunWalk (nil: this build's version or older):
    /// a `user_version` above ours, or migrations applied that this build does not know.
    func newerVersion(_ db: SQLiteConnection) throws -> Int? {
        let stamped = try db.value(Int.self, "PRAGMA user_version") ?? 0
        var unknown = 0
        let exists = try db.value(Int.self, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?", [Self.table]) ?? 0
        if exists > 0 {
            let known = Set(migrations.map(\.identifier))
            unknown = Set(try db.values(String.self, "SELECT identifier FROM \(Self.table)")).subtracting(known).count
        }
        let found = max(stamped, unknown > 0 ? version + unknown : 0)
        return found > version ? found : nil
    }

    /// Whether every registered migration has been applied.
    func hasCompletedMigrations(_ db: SQLiteConnection) throws -> Bool {
        try appliedMigrations(db).count == migrations.count
    }

    /// Applies the migrations `db` lacks, each in a transaction of its own with its row in the
    /// table; looked at again inside the transaction, as another process may be migrating too.
    func migrate(_ pool: StorePool) throws {
        try pool.writeWithoutTransaction { db in
            if try hasCompletedMigrations(db) { return }
            for migration in migrations {
                try db.transaction(.immediate) { db in
                    try db.execute("CREATE TABLE IF NOT EXISTS \(Self.table) (identifier TEXT NOT NULL PRIMARY KEY)")
                    guard try db.value(Int.self, "SELECT COUNT(*) FROM \(Self.table) WHERE identifier = ?", [migration.identifier]) == 0
                    else { return }
                    try migration.migrate(db)
                    try db.execute("INSERT INTO \(Self.table) (identifier) VALUES (?)", [migration.identifier])
                }
            }
            // Stamped once migrated, so that an older RunWalk can tell the file is newer than it.
            if try (db.value(Int.self, "PRAGMA user_version") ?? 0) < version {
                try db.execute("PRAGMA user_version = \(version)")
            }
        }
    }
}
