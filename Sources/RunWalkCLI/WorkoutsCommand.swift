import ArgumentParser
import Foundation
import RunWalkCore
import RunWalkIO

struct WorkoutsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workouts",
        abstract: "List, show, add, remove, import and export named workouts.",
        subcommands: [List.self, Show.self, Add.self, Remove.self, Import.self, Export.self],
        defaultSubcommand: List.self)

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List built-in and saved workouts.")
        func run() throws {
            let (library, problems) = try WorkoutStore.loadLeniently()
            for problem in problems { Terminal.warning("runwalk: warning: \(problem.error.description) (this line is skipped)") }
            let width = library.entries.map(\.name.count).max() ?? 0
            for entry in library.entries {
                let pad = String(repeating: " ", count: width - entry.name.count)
                Terminal.out("\(entry.name)\(pad)  \(entry.builtIn ? "built-in" : "saved   ")  \(entry.spec)")
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a workout's phases.")
        @Argument(help: "A workout name or spec.") var workout: String
        func run() throws {
            let parsed = try WorkoutArgument.parse(workout)
            Terminal.out(parsed.spec)
            for (i, phase) in parsed.phases.enumerated() {
                let target = phase.target.durationSeconds.map { SummaryText.clock($0) }
                    ?? phase.target.distanceMetres.map { "\(Int($0.rounded())) m" } ?? ""
                let kind = phase.kind.rawValue
                Terminal.out("\(String(repeating: " ", count: max(0, 3 - String(i + 1).count)))\(i + 1)  \(kind)\(String(repeating: " ", count: max(1, 9 - kind.count)))\(target)")
            }
            if let total = parsed.plannedDuration { Terminal.out("total \(SummaryText.clock(total.seconds))") }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Save a workout under a name.")
        @Argument(help: "Name (letters, digits, - and _).") var name: String
        @Argument(help: "Workout spec.") var spec: String
        func run() throws {
            _ = try WorkoutArgument.parse(spec)
            var library = try WorkoutStore.load()
            do { _ = try library.add(name: name, spec: spec) } catch let error as WorkoutLibrary.FileError {
                throw UserFacingError.input(error.message)
            }
            try WorkoutStore.save(library)
            Terminal.warning("saved \(name.lowercased())")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove a saved workout.")
        @Argument(help: "Name.") var name: String
        func run() throws {
            var library = try WorkoutStore.load()
            guard library.remove(name: name) else {
                let builtIn = WorkoutLibrary.builtIns.contains { $0.name == name.lowercased() }
                throw UserFacingError.input(builtIn ? "\(name) is built in and cannot be removed" : "no saved workout named \(name)")
            }
            try WorkoutStore.save(library)
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add the workouts of a file (name = spec per line).")
        @Argument(help: "File to import ('-' for standard input).") var file: String
        func run() throws {
            let text: String
            do {
                text = String(decoding: try ByteSource.contents(of: file, limit: ConfigDirectory.maximumBytes), as: UTF8.self)
            } catch {
                throw UserFacingError.input(error.description)
            }
            let entries = try WorkoutStore.call { try WorkoutLibraryFile.entries(in: text, path: file) }
            var library = try WorkoutStore.load()
            for entry in entries { _ = try library.add(name: entry.name, spec: entry.spec) }
            try WorkoutStore.save(library)
            Terminal.warning("imported \(entries.count) workout\(entries.count == 1 ? "" : "s")")
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write the saved workouts in the file format.")
        @Option(name: .shortAndLong, help: "Output file (default: standard output).") var output: String?
        func run() throws {
            let text = try WorkoutStore.load().serialised()
            // Workouts are not private like a track: a new file gets the usual 0666 minus the umask.
            let mask = umask(0o022)
            umask(mask)
            try ReportOutput.write(Array(text.utf8), to: output, newFileMode: 0o666 & ~mask)
        }
    }
}

/// The workouts file, with its errors (and the settings file's) mapped to exit code 2.
enum WorkoutStore {
    static func load() throws -> WorkoutLibrary {
        try call { try WorkoutLibraryFile().load() }
    }

    /// The good lines, and the bad ones to report or raise.
    static func loadLeniently() throws -> (library: WorkoutLibrary, problems: [(name: String?, error: ConfigFileAtPath)]) {
        try call { try WorkoutLibraryFile().loadLeniently() }
    }

    static func save(_ library: WorkoutLibrary) throws {
        let file = WorkoutLibraryFile()
        do { try file.save(library) } catch {
            throw UserFacingError.runtime("\(UserText.path(file.url.path)): cannot save: \(FileErrorText.reason(error))")
        }
    }

    static func call<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as ConfigFileAtPath {
            throw UserFacingError.input(error.description)
        } catch let error as InputError {
            throw UserFacingError.input(error.description)
        }
    }
}
