import ArgumentParser
import Foundation
import RunWalkIO
import RunWalkReport
import RunWalkStore

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Show a recorded session's summary (text, the summary JSON, or a self-contained HTML page).")

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, html }

    @Argument(help: "Session number (from `runwalk history`) or `last`.")
    var session: String = "last"

    @Option(name: .long, help: "text, json, or html (one file: charts, route map, tables; no network needed).")
    var format: Format = .text

    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
    var output: String?

    func run() throws {
        let reference: SessionReference
        do {
            reference = try SessionReference(parsing: session)
        } catch let error as StoreError {
            throw UserFacingError.input(error.description)
        }
        let store = try StoreAccess.openExisting()
        let stored: StoredSession
        do {
            stored = try store.loadSession(reference)
        } catch let error as StoreError {
            throw UserFacingError.runtime(error.description)
        }
        let text: String
        switch format {
        case .json: text = stored.summaryJSON
        case .html: text = HTMLReport.render(RecordedSession(summary: stored.summary, track: stored.trackPoints))
        case .text: text = "Session   \(stored.info.id) (\(stored.info.source))\n" + SummaryText.render(stored.summary)
        }
        if let output {
            do {
                try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: output))
            } catch {
                throw UserFacingError.runtime("\(output): cannot write the report: \(error.localizedDescription)")
            }
        } else {
            Terminal.out(text)
        }
    }
}
