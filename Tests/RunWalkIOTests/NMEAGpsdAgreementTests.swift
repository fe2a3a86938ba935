import Foundation
import Testing
import RunWalkCore
@testable import RunWalkIO

/// Our decoder against gpsd 3.22 on real receiver logs: the 13 in `Tests/Fixtures/gpsd-logs`
/// always (every clone has them), and all 35 of `../shared/data/gpsd-logs` where it is present.
///
/// For every time gpsd reported (its last TPV for that time, as MANIFEST.txt says), our fix
/// for the same time must agree on the mode, and where gpsd has a 2D/3D fix on latitude and
/// longitude (1e-8°), altitude MSL in 3D (1 mm), and speed and course where our epoch's
/// RMC/VTG carried them (gpsd derives speed from positions otherwise, and prints neither
/// without a fix). gpsd 3.22 moves dates before 2017 forward by 1024 weeks; we report the
/// receiver's date and add the same 619 315 200 s before comparing.
///
/// Every one of gpsd's 765 epochs agrees. What remains are epochs we report and gpsd does
/// not (`extraAllowed` below), each for one of these causes:
/// - **no date yet**: gpsd reports no time until an RMC or ZDA has given a year; we hold the
///   first epochs back and date them once the date comes (beidou-bd 6, beidou-gb 4,
///   garmin25lp 9, myguide-3100 5, nl551e 3, hp58534a 1, venus634lp 1), and in
///   logs that never carry a date we report time-of-day epochs with `dateKnown == false`
///   (sounder 122 GLL epochs, tn200 19 and tn200-all 9 no-fix epochs).
/// - **last epoch of the log**: gpsd reports an epoch at its cycle-ending sentence; a log
///   that stops before it leaves the last time unreported, where we report what it holds
///   (bu353-glonass, ch-4711, foretrex-201, garmin48, isync, rst39, ublox-lea-5h,
///   venus634lp: 1 each; bt451 2, as its first recording, before "# Moving in car", also
///   stops mid-epoch).
/// - **not yet a cycle ender**: gpsd reports an epoch when the sentence type it has learnt
///   to end epochs arrives (it learns them as times change). An epoch carried only by a
///   timed sentence it has not learnt yet is merged but never reported: bt451's first GLL
///   epoch (15:25:04.5, 1), humminbird-M37, whose receiver sends one timed sentence per
///   second in turn (19:41:02 by GLL and 19:41:04 by GGA alone, 2).
@Suite("NMEA decoder vs gpsd 3.22")
struct NMEAGpsdAgreementTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The logs in the repository (with gpsd's output and their provenance in MANIFEST.txt).
    static let fixturesFolder = root.appendingPathComponent("Tests/Fixtures/gpsd-logs").path
    /// The project's whole data set, beside the repository on the project's machines.
    static let sharedFolder = root.appendingPathComponent("../shared/data/gpsd-logs").standardizedFileURL.path
    static let sharedAvailable = FileManager.default.fileExists(atPath: sharedFolder + "/MANIFEST.txt")

    /// Every log's path by name: the repository's, replaced by the data set's where it is present.
    static func logPaths() throws -> [String: String] {
        var paths: [String: String] = [:]
        for folder in [fixturesFolder] + (sharedAvailable ? [sharedFolder] : []) {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasSuffix(".log") {
                paths[name] = folder + "/" + name
            }
        }
        return paths
    }

    /// Epochs we may report that gpsd does not, per log (causes in the suite's comment).
    static let extraAllowed: [String: Int] = [
        "beidou-bd.log": 6, "beidou-gb.log": 4, "bt451.log": 3, "bu353-glonass.log": 1, "ch-4711.log": 1,
        "foretrex-201.log": 1, "garmin25lp.log": 9, "garmin48.log": 1, "hp58534a.log": 1,
        "humminbird-M37.log": 2, "isync.log": 1, "myguide-3100.log": 5, "nl551e.log": 3, "rst39.log": 1,
        "sounder.log": 122, "tn200-all.log": 9, "tn200.log": 19, "ublox-lea-5h.log": 1, "venus634lp.log": 2,
    ]

    typealias Row = GpsdAgreement.Row

    @Test("every gpsd epoch of every log agrees (the repository's 13, and ../shared's 35 where present)")
    func agreement() throws {
        let paths = try Self.logPaths()
        let logs = paths.keys.sorted()
        #expect(logs.count == (Self.sharedAvailable ? 35 : 13), "the MANIFEST.txt files list 13 (repository) and 35 logs")
        var rows: [Row] = []
        for log in logs { rows.append(try compare(log, path: paths[log] ?? log)) }
        print(Self.table(rows))
        for row in rows {
            #expect(row.agreeing == row.gpsdEpochs, "\(row.log): \(row.differences.prefix(5))")
            #expect(row.extra <= Self.extraAllowed[row.log, default: 0], "\(row.log): \(row.extra) epochs gpsd does not report")
        }
        if Self.sharedAvailable { #expect(rows.reduce(0) { $0 + $1.agreeing } == 765) }
        #expect(rows.reduce(0) { $0 + $1.agreeing } > 0)
    }

    func compare(_ log: String, path: String) throws -> Row {
        let oracle = try GpsdAgreement.lastTPVPerTime(json: try Data(contentsOf: URL(fileURLWithPath: path + ".chk")))
        var fixes: [Fix] = []
        var reader = NMEAFileReader(path: path)
        try reader.read { fixes.append($0) }
        return GpsdAgreement.compare(log: log, fixes: fixes, oracle: oracle)
    }

    static func table(_ rows: [Row]) -> String {
        func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
        func num(_ v: Int, _ n: Int) -> String { let s = String(v); return String(repeating: " ", count: max(0, n - s.count)) + s }
        var lines = ["| log | gpsd epochs | agree | missing | ours | ours only |", "| --- | ---: | ---: | ---: | ---: | ---: |"]
        for r in rows {
            lines.append("| \(pad(r.log, 24)) | \(num(r.gpsdEpochs, 4)) | \(num(r.agreeing, 4)) | \(num(r.missing, 3)) | \(num(r.ours, 4)) | \(num(r.extra, 3)) |")
        }
        let total = rows.reduce(into: Row(log: "total")) {
            $0.gpsdEpochs += $1.gpsdEpochs; $0.agreeing += $1.agreeing; $0.missing += $1.missing
            $0.ours += $1.ours; $0.extra += $1.extra
        }
        lines.append("| \(pad("**total**", 24)) | \(num(total.gpsdEpochs, 4)) | \(num(total.agreeing, 4)) | \(num(total.missing, 3)) | \(num(total.ours, 4)) | \(num(total.extra, 3)) |")
        return lines.joined(separator: "\n")
    }
}
