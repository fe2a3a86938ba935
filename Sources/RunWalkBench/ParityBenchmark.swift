import Foundation
import RunWalkCore
import RunWalkIO

/// `runwalk-bench parity [--logs DIR]`
///
/// Epoch parity with gpsd on every log of `../shared/data/gpsd-logs`: the share of gpsd's
/// epochs (last TPV per time) that our fix for the same time matches (`GpsdAgreement`).
/// gpsd's output is produced in the same run with `gpsdecode` where the log allows (gpsdecode
/// reports TPVs for it), else the shipped `.chk` (gpsd's daemon through gpsfake) is used; the
/// `.chk` figure is printed beside it for every log.
enum ParityBenchmark {
    static func run(_ arguments: ArraySlice<String>) throws {
        var folder: String?
        var rest = arguments
        while let flag = rest.popFirst() {
            guard flag == "--logs", let value = rest.popFirst() else { throw BenchError.usage("usage: parity [--logs DIR]") }
            folder = value
        }
        let logsFolder = try folder ?? defaultFolder()
        let logs = try FileManager.default.contentsOfDirectory(atPath: logsFolder).filter { $0.hasSuffix(".log") }.sorted()
        guard !logs.isEmpty else { throw BenchError.usage("no .log files in \(logsFolder)") }
        print("parity: \(logs.count) logs in \(logsFolder)")
        print("| log | oracle | gpsd epochs | agree | parity | .chk epochs | agree | parity |")
        print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        var total = (epochs: 0, agree: 0, chkEpochs: 0, chkAgree: 0)
        for log in logs {
            let path = logsFolder + "/" + log
            var fixes: [Fix] = []
            var reader = NMEAFileReader(path: path)
            try reader.read { fixes.append($0) }
            let chkPath = path + ".chk"
            let chk = FileManager.default.fileExists(atPath: chkPath)
                ? try GpsdAgreement.lastTPVPerTime(json: try Data(contentsOf: URL(fileURLWithPath: chkPath))) : [:]
            let decoded = (try? gpsdecode(path)).map { try? GpsdAgreement.lastTPVPerTime(json: $0) } ?? nil
            let useDecoded = (decoded?.isEmpty == false) || chk.isEmpty
            let oracle = useDecoded ? (decoded ?? [:]) : chk
            let row = GpsdAgreement.compare(log: log, fixes: fixes, oracle: oracle)
            let chkRow = GpsdAgreement.compare(log: log, fixes: fixes, oracle: chk)
            total.epochs += row.gpsdEpochs
            total.agree += row.agreeing
            total.chkEpochs += chkRow.gpsdEpochs
            total.chkAgree += chkRow.agreeing
            print("| \(log) | \(useDecoded ? "gpsdecode" : ".chk") | \(row.gpsdEpochs) | \(row.agreeing) | "
                + "\(percent(row.agreeing, row.gpsdEpochs)) | \(chkRow.gpsdEpochs) | \(chkRow.agreeing) | "
                + "\(percent(chkRow.agreeing, chkRow.gpsdEpochs)) |")
        }
        print("| **total** | | \(total.epochs) | \(total.agree) | \(percent(total.agree, total.epochs)) | "
            + "\(total.chkEpochs) | \(total.chkAgree) | \(percent(total.chkAgree, total.chkEpochs)) |")
    }

    static func percent(_ part: Int, _ whole: Int) -> String {
        whole == 0 ? "–" : NMEABenchmark.format(100 * Double(part) / Double(whole), 1) + " %"
    }

    static func defaultFolder() throws -> String {
        let treeRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
        for root in [FileManager.default.currentDirectoryPath, treeRoot] {
            let dir = URL(fileURLWithPath: root + "/../shared/data/gpsd-logs").standardizedFileURL.path
            if FileManager.default.fileExists(atPath: dir) { return dir }
        }
        throw BenchError.usage("../shared/data/gpsd-logs not found; pass --logs DIR")
    }

    /// gpsdecode's JSON for the log (TPV, SKY, …).
    static func gpsdecode(_ path: String) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gpsdecode")
        guard let input = FileHandle(forReadingAtPath: path) else { throw BenchError.usage("cannot read \(path)") }
        defer { try? input.close() }
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = readToEnd(output.fileHandleForReading)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchError("gpsdecode exited \(process.terminationStatus)") }
        return data
    }
}
