import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RunWalkCore
import RunWalkIO
import RunWalkStore

struct SessionEditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session",
        abstract: "Delete, rename or note a recorded session (records and plan progress follow).",
        subcommands: [Remove.self, Rename.self, Note.self])

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm", abstract: "Delete a session and everything recorded with it.",
            discussion: "Asks on a terminal; without one, refuses unless --yes is given. A plan day the session did is due again.")
        @Argument(help: "Session number (see `runwalk history`).") var id: String
        @Flag(name: .long, help: "Delete without asking.") var yes = false

        func run() throws {
            let store = try StoreAccess.openExistingForWriting()
            let number = try SessionNumber.parse(id, store: store)
            let info = try PlanStore.call { try store.loadSession(.id(number)).info }
            guard !info.state.isRecording else {
                throw UserFacingError.input("session \(number) is still being recorded: stop it first")
            }
            let description = "session \(number) (\(HistoryText.date(info.date, withTime: true)), \(info.workout), "
                + "\(info.distanceMetres.map { SummaryText.distance($0, .metric) } ?? "-"))"
            if !yes {
                guard isatty(STDIN_FILENO) == 1 else {
                    throw UserFacingError.input("session rm \(number): standard input is not a terminal, so I cannot ask: add --yes to delete \(description)")
                }
                Terminal.prompt("Delete \(description)? This cannot be undone. [y/N] ")
                let answer = readLine()?.trimmingWhitespace().lowercased() ?? ""
                guard answer == "y" || answer == "yes" else {
                    Terminal.warning("kept \(description)")
                    return
                }
            }
            let planDay = try PlanStore.call { try store.planDaysBySession()[number] }
            guard try PlanStore.call({ try store.deleteSession(id: number) }) else {
                throw UserFacingError.runtime(StoreError.noSuchSession(String(number)).description)
            }
            Terminal.out("Deleted \(description).")
            if let planDay, planDay.kind == .done {
                Terminal.out("Plan \(planDay.plan): \(planDay.slot) is to do again.")
            }
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Give a session a name (\"\" removes it).")
        @Argument(help: "Session number.") var id: String
        @Argument(help: "The name.") var name: String
        func run() throws {
            let store = try StoreAccess.openExistingForWriting()
            let number = try SessionNumber.parse(id, store: store)
            let text = try SessionNumber.cleaned(name, what: "name", limit: 120)
            guard try PlanStore.call({ try store.renameSession(id: number, name: text) }) else {
                throw UserFacingError.runtime(StoreError.noSuchSession(String(number)).description)
            }
            Terminal.out(text.map { "Session \(number) is now \"\($0)\"." } ?? "Session \(number) has no name now.")
        }
    }

    struct Note: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write a note on a session (\"\" removes it).")
        @Argument(help: "Session number.") var id: String
        @Argument(help: "The note.") var text: String
        func run() throws {
            let store = try StoreAccess.openExistingForWriting()
            let number = try SessionNumber.parse(id, store: store)
            let note = try SessionNumber.cleaned(text, what: "note", limit: 2000)
            guard try PlanStore.call({ try store.setSessionNote(id: number, note: note) }) else {
                throw UserFacingError.runtime(StoreError.noSuchSession(String(number)).description)
            }
            Terminal.out(note == nil ? "Session \(number) has no note now." : "Noted on session \(number).")
        }
    }
}

/// Session numbers and the texts given to sessions.
enum SessionNumber {
    /// A session number (or `last`), as `history` prints it.
    static func parse(_ text: String, store: RunWalkStore) throws -> Int64 {
        let reference: SessionReference
        do { reference = try SessionReference(parsing: text) } catch let error as StoreError {
            throw UserFacingError.input(error.description)
        }
        switch reference {
        case .id(let id): return id
        case .last: return try PlanStore.call { try store.loadSession(.last).info.id }
        }
    }

    /// The text trimmed, nil when empty; control characters and overlong texts are refused.
    static func cleaned(_ text: String, what: String, limit: Int) throws -> String? {
        let trimmed = text.trimmingWhitespace()
        if let bad = trimmed.unicodeScalars.first(where: { $0.value < 0x20 && $0 != "\n" }) {
            throw UserFacingError.input("the \(what) holds a control character (U+\(String(bad.value, radix: 16, uppercase: true)))")
        }
        guard trimmed.count <= limit else { throw UserFacingError.input("the \(what) is \(trimmed.count) characters long; at most \(limit)") }
        return trimmed.isEmpty ? nil : trimmed
    }
}
