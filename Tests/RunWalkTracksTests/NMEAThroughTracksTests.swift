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
}
