import ArgumentParser
import FoundationEssentials
import RunWalkCore
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
            throw StoreAccess.failure(error, store: store)
        }
        let text: String
        switch format {
        case .json: text = stored.summaryJSON
        case .html: text = HTMLReport.render(RecordedSession(summary: stored.summary, track: stored.trackPoints, heartRate: stored.heartRate))
        case .text:
            text = "Session   \(stored.info.id) (\(stored.info.source))\n" + SummaryText.render(stored.summary, track: stored.trackPoints)
                + Self.recordsSet(by: stored.info.id, store: store, units: stored.summary.units)
        }
        try ReportOutput.write(Array((text + "\n").utf8), to: output)
    }
}

extension ReportCommand {
    /// "Records set in this run" lines for the text report (empty when it set none).
    static func recordsSet(by sessionID: Int64, store: RunWalkStore, units: Units) -> String {
        guard let records = try? History(store: store).recordsSet(by: sessionID), !records.isEmpty else { return "" }
        let lines = records.map { record -> String in
            let value = record.seconds.map { TimeText.clock($0) } ?? record.metres.map { SummaryText.distance($0, units) } ?? ""
            return "  \(record.name)\(String(repeating: " ", count: max(1, 22 - record.name.count)))\(value)"
        }
        return "\n\nRecords set in this run\n" + lines.joined(separator: "\n")
    }
}
