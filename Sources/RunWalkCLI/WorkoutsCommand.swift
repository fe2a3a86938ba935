import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RunWalkCore
import RunWalkIO

struct WorkoutsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workouts",
        abstract: "List, show, add, rename, update, remove, import and export named workouts.",
        subcommands: [List.self, Show.self, Add.self, Rename.self, Update.self, Remove.self, Import.self, Export.self],
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
                var target = phase.target.durationSeconds.map { TimeText.clock($0) }
                    ?? phase.target.distanceMetres.map { "\(Int($0.rounded())) m" } ?? ""
                // A condition's phase has no set length; its target and band follow the length (issue 33).
                if phase.until != nil { target = "" }
                target = [target, phase.targetSpecText].filter { !$0.isEmpty }.joined(separator: "  ")
                let kind = phase.kind.rawValue
                Terminal.out("\(String(repeating: " ", count: max(0, 3 - String(i + 1).count)))\(i + 1)  \(kind)\(String(repeating: " ", count: max(1, 9 - kind.count)))\(target)")
            }
            if let total = parsed.plannedDuration { Terminal.out("total \(TimeText.clock(total.seconds))") }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Save a workout under a name.")
        @Argument(help: "Name (letters, digits, - and _).") var name: String
        @Argument(help: "Workout spec.") var spec: String
        func run() throws {
            _ = try WorkoutArgument.parse(spec)
            var library = try WorkoutStore.load()
            try WorkoutNames.checkNew(name, in: library)
            do { _ = try library.add(name: name, spec: spec) } catch let error as WorkoutLibrary.FileError {
                throw UserFacingError.input(error.message)
            }
            try WorkoutStore.edit { try $0.add(name: name, spec: spec) }
            Terminal.warning("saved \(name.lowercased())")
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rename a saved workout.")
        @Argument(help: "Current name.") var name: String
        @Argument(help: "New name (letters, digits, - and _).") var newName: String
        func run() throws {
            var library = try WorkoutStore.load()
            try WorkoutNames.checkSaved(name, in: library)
            try WorkoutNames.checkNew(newName, in: library)
            do { try library.rename(name, to: newName) } catch { throw UserFacingError.input(error.message) }
            try WorkoutStore.edit { try $0.rename(name.lowercased(), to: newName) }
            Terminal.warning("renamed \(name.lowercased()) to \(newName.lowercased())")
        }
    }

    struct Update: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change a saved workout's spec in place.")
        @Argument(help: "Name.") var name: String
        @Argument(help: "New workout spec.") var spec: String
        func run() throws {
            var library = try WorkoutStore.load()
            try WorkoutNames.checkSaved(name, in: library)
            _ = try WorkoutArgument.parse(spec)
            do { _ = try library.add(name: name, spec: spec) } catch let error as WorkoutLibrary.FileError {
                throw UserFacingError.input(error.message)
            }
            try WorkoutStore.edit { try $0.update(name: name.lowercased(), spec: spec) }
            Terminal.warning("updated \(name.lowercased())")
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
            try WorkoutStore.edit { try $0.remove(name: name.lowercased()) }
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add the workouts of a file (name = spec per line).")
        @Argument(help: "File to import ('-' for standard input).") var file: String
        @Flag(name: .long, help: "Replace saved workouts of the same names (else such a name is an error).") var replace = false
        func run() throws {
            let text: String
            do {
                text = try ConfigDirectory.importedText(of: file)
            } catch {
                throw UserFacingError.input(error.description)
            }
            let entries = try WorkoutStore.call { try WorkoutLibraryFile.entries(in: text, path: file) }
            var library = try WorkoutStore.load()
            // Checked before anything is added, so a refused import changes nothing.
            for entry in entries where !(replace && library.userEntries.contains { $0.name == entry.name }) {
                do { try WorkoutNames.checkNew(entry.name, in: library) } catch let error as UserFacingError {
                    // A saved workout of that name (not a built-in one, not the plan word) can be replaced.
                    let saved = entry.name.lowercased() != "next" && library.entry(named: entry.name)?.builtIn == false
                    throw UserFacingError.input("\(file): \(error.message)" + (saved ? " (or import with --replace)" : ""))
                }
            }
            // Line by line: a name saved before (or earlier in the file) is changed where it stands.
            var saved = Set(library.userEntries.map(\.name))
            try WorkoutStore.edit { document in
                for entry in entries {
                    let key = entry.name.lowercased()
                    if saved.contains(key) { try document.update(name: key, spec: entry.spec) } else { try document.add(name: key, spec: entry.spec) }
                    saved.insert(key)
                }
            }
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

/// The checks behind "a workout of that name exists" and "there is no such saved workout".
enum WorkoutNames {
    /// A new name must be free: not saved, not built in, not the plan word `next`.
    static func checkNew(_ name: String, in library: WorkoutLibrary) throws {
        let key = name.lowercased()
        if key == "next" { throw UserFacingError.input("\"next\" means the next day of your plan: choose another name") }
        guard let existing = library.entry(named: key) else { return }
        throw UserFacingError.input(existing.builtIn
            ? "\(key) is a built-in workout: choose another name"
            : "a saved workout named \(key) exists: use `runwalk workouts update \(key) SPEC` to change it")
    }

    /// The name must be one of the user's saved workouts.
    static func checkSaved(_ name: String, in library: WorkoutLibrary) throws {
        let key = name.lowercased()
        guard !library.userEntries.contains(where: { $0.name == key }) else { return }
        throw UserFacingError.input(WorkoutLibrary.builtIns.contains { $0.name == key }
            ? "\(key) is built in and cannot be changed: add a copy under another name"
            : "no saved workout named \(name) (see `runwalk workouts list`)")
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

    /// Changes the file line by line (`WorkoutsDocument`): the runner's comments, blank lines and
    /// order stay as they were; only the line changed is written anew.
    static func edit(_ change: (inout WorkoutsDocument) throws -> Void) throws {
        let file = WorkoutLibraryFile()
        do { try file.edit(change) } catch let error as ConfigFileError {
            throw UserFacingError.input("\(UserText.path(file.url.path)): \(error.description)")
        } catch let error as ConfigFileAtPath {
            throw UserFacingError.input(error.description)
        } catch let error as InputError {
            throw UserFacingError.input(error.description)
        } catch {
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
