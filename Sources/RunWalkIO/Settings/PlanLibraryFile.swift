import FoundationEssentials
import RunWalkCore

/// The user's own training plans on disk: one JSON file per plan in `plans/` of the config
/// folder (`~/.config/runwalk/plans/NAME.json`), the same format `plan import|export` uses.
public struct PlanLibraryFile {
    /// The plans folder.
    public let directory: URL

    public init(configDirectory: URL = ConfigDirectory.url()) {
        directory = configDirectory.appendingPathComponent("plans")
    }

    /// The file a plan of this name lives in.
    public func url(of name: String) -> URL { directory.appendingPathComponent("\(name).json") }

    /// Every user plan, by name; a broken file is an error naming it (the folder is the user's to fix).
    public func load() throws -> [TrainingPlan] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        return try names.filter { $0.hasSuffix(".json") }.sorted().map { file in
            let url = directory.appendingPathComponent(file)
            return try Self.read(path: url.path)
        }
    }

    /// Reads and checks a plan file; errors name the file, then the place in it.
    public static func read(path: String) throws -> TrainingPlan {
        guard let text = try ConfigDirectory.text(of: URL(fileURLWithPath: path)) else { throw InputError.notFound(path: path) }
        do { return try TrainingPlan(json: text) } catch {
            throw PlanFileError(path: path, error: error)
        }
    }

    /// Writes a plan atomically (a crash leaves the old file or the new one).
    public func save(_ plan: TrainingPlan) throws {
        // Private like the rest of the config folder: 0700 folders, 0600 files.
        try PrivateFolder.ensure(directory.path)
        try OutputFile.write(Array(plan.json.utf8), to: url(of: plan.name).path, newFileMode: PrivateFolder.fileMode)
    }
}

/// A plan file's mistake, with the file it is in.
public struct PlanFileError: Error, CustomStringConvertible {
    /// The file.
    public var path: String
    /// The mistake and where it is in the file.
    public var error: PlanError
    public var description: String { "\(path): \(error.description)" }
}
