import Foundation
import RunWalkCore
import Testing
@testable import RunWalkTracks

@Suite("NMEA through the track reader")
struct NMEAThroughTracksTests {
    static let demo = TrackFiles.repositoryRoot.appendingPathComponent("SampleTracks/demo-short.nmea").path

    @Test("an NMEA file gives the same fixes plain, gzip-compressed and from a FIFO (which cannot be opened twice)")
    func sameFixesEveryWay() throws {
        let plain = try TrackFiles.read(path: Self.demo)
        #expect(plain.format == .nmea)
        #expect(plain.fixes.count > 100)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.demo)))
        let gzipped = try TrackFiles.read(try TrackFiles.gzip(bytes), name: "demo.nmea.gz")
        #expect(gzipped.compressed)
        #expect(gzipped.fixes == plain.fixes)

        let folder = try TrackFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("fifo").path
        try #require(mkfifo(fifo, 0o600) == 0)
        // The writer blocks in open until the reader opens the FIFO.
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
            try? handle.write(contentsOf: Data(bytes))
            try? handle.close()
        }
        writer.start()
        let piped = try TrackFiles.read(path: fifo)
        #expect(piped.fixes == plain.fixes)
    }

    @Test("a gzip NMEA file cut short: the fixes before the cut are read, and the cut is said once")
    func truncatedGzip() throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.demo)))
        let plain = try TrackFiles.read(path: Self.demo)
        let compressed = try TrackFiles.gzip(bytes)
        let cut = try TrackFiles.read(Array(compressed.prefix(compressed.count / 2)), name: "cut.nmea.gz")
        #expect(cut.fixes.count > 10 && cut.fixes.count < plain.fixes.count, "\(cut.fixes.count) of \(plain.fixes.count)")
        #expect(Array(plain.fixes.prefix(cut.fixes.count - 1)) == Array(cut.fixes.dropLast()), "the fixes before the cut are the file's")
        let said = cut.warnings.filter { $0.contains("the gzip data end early (truncated file)") }
        #expect(said.count == 1, "\(cut.warnings)")
    }
}
