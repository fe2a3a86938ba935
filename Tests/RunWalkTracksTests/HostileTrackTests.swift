import Foundation
import RunWalkCore
import Testing
@testable import RunWalkTracks

/// Hostile and damaged track files (issue 31), read in process: tokens and nesting capped, a
/// FIT without its CRC read with a warning, one glitched timestamp skipped alone.
@Suite("Hostile track files")
struct HostileTrackTests {
    static let gpxHead = """
    <?xml version="1.0"?>
    <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1">
    <trk><name>
    """

    @Test("a text node over 1 MB fails with one line naming the line where it starts")
    func longText() throws {
        let bytes = Array((Self.gpxHead + String(repeating: "A", count: (1 << 20) + 1) + "</name></trk></gpx>\n").utf8)
        let error = try #require(throws: TrackFileError.self) { try TrackFiles.read(bytes, name: "long.gpx") }
        #expect(error.place == "line 3")
        #expect(error.message == "text longer than 1 MB")
    }

    @Test("text cut into pieces by comments and CDATA still counts as one text")
    func textInPieces() throws {
        let piece = String(repeating: "A", count: 300_000)
        let body = "<trkseg><trkpt lat=\"1\" lon=\"2\"><time>" + [piece, "<!-- x -->", piece, "<![CDATA[", piece, "]]>", piece].joined()
        let bytes = Array((Self.gpxHead + "n</name>\n" + body + "</time></trkpt></trkseg></trk></gpx>\n").utf8)
        let error = try #require(throws: TrackFileError.self) { try TrackFiles.read(bytes, name: "pieces.gpx") }
        #expect(error.message == "text longer than 1 MB", "\(error)")
    }

    @Test("a tag, a comment and markup over 1 MB, and nesting deeper than 1000, each fail with one line")
    func longMarkupAndDeepNesting() throws {
        let long = String(repeating: "B", count: (1 << 20) + 10)
        let cases: [(String, String)] = [
            ("<trk name=\"\(long)\"/>", "line 3: tag longer than 1 MB"),
            ("<!-- \(long) -->", "line 3: comment longer than 1 MB"),
            ("<?pi \(long) ?>", "line 3: markup longer than 1 MB"),
            (String(repeating: "<a>", count: 1001), "line 3: elements nested deeper than 1000"),
        ]
        for (body, expected) in cases {
            let bytes = Array(("<?xml version=\"1.0\"?>\n<gpx version=\"1.1\">\n" + body + "\n</gpx>\n").utf8)
            let error = try #require(throws: TrackFileError.self) { try TrackFiles.read(bytes, name: "x.gpx") }
            #expect(error.description.hasSuffix("x.gpx:" + expected), "\(error)")
        }
    }

    /// A FIT activity of `count` records one second apart; `glitch` gives one record another time.
    static func fit(count: Int, glitch: (index: Int, seconds: UInt32)? = nil) -> [UInt8] {
        var fit = FITBuilder()
        fit.define(local: 0, global: 20, bigEndian: false, fields: [(253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85)])
        for t in 0..<count {
            let seconds = glitch?.index == t ? glitch?.seconds ?? 0 : FITDecoderTests.start + UInt32(t)
            fit.data(local: 0, [UInt64(seconds), FITBuilder.semicircles(FITDecoderTests.latitude(t)), FITBuilder.semicircles(8.54)])
        }
        return fit.file()
    }

    @Test("one FIT record with a time in the future (valid CRC): that record is skipped and said so, the other 1799 are kept")
    func futureTimestamp() throws {
        let bytes = Self.fit(count: 1800, glitch: (900, FITDecoderTests.start + 400_000_000))
        let read = try TrackFiles.read(bytes, name: "glitch.fit")
        #expect(read.fixes.count == 1799)
        #expect(read.warnings.count == 1, "\(read.warnings)")
        #expect(read.warnings.first?.contains("1 points skipped whose time jumps ahead of the points after them") == true, "\(read.warnings)")
        #expect(read.warnings.first?.contains("overlapping") == false)
        #expect(read.fixes.allSatisfy { !$0.startsSegment })
    }

    @Test("a time glitch on the first record, and a repeated time, skip one point each")
    func glitchAtStartAndRepeats() throws {
        let first = try TrackFiles.read(Self.fit(count: 60, glitch: (0, FITDecoderTests.start + 1_000_000)), name: "first.fit")
        #expect(first.fixes.count == 59)
        let repeated = try TrackFiles.read(Self.fit(count: 60, glitch: (30, FITDecoderTests.start + 29)), name: "repeat.fit")
        #expect(repeated.fixes.count == 59)
        #expect(repeated.warnings.first?.contains("does not advance") == true, "\(repeated.warnings)")
    }

    @Test("a FIT that lacks only its 2-byte file CRC is read, with a warning; one byte of it is still a truncated file")
    func missingFileCRC() throws {
        let whole = FITDecoderTests.handWritten()
        let read = try TrackFiles.read(Array(whole.dropLast(2)), name: "nocrc.fit")
        #expect(read.fixes.count == 51)
        #expect(read.warnings.count == 1, "\(read.warnings)")
        #expect(read.warnings.first?.hasSuffix("the file ends without its 2-byte CRC (cut off as it was written?); its data were read unchecked (first at byte \(whole.count - 2))") == true, "\(read.warnings)")
        let error = try #require(throws: TrackFileError.self) { try TrackFiles.read(Array(whole.dropLast(1)), name: "cut.fit") }
        #expect(error.message.hasSuffix("the file ends 1 byte(s) short (truncated)"), "\(error)")
    }

    @Test("a FIT streamed from standard input (no second pass) gives the same points as the file")
    func fitFromPipe() throws {
        let bytes = FITDecoderTests.handWritten()
        var pipeline = TrackPointPipeline()
        var chunks = bytes.chunked(into: 7).makeIterator()
        let stream = FITByteStream(head: []) { buffer in
            guard let chunk = chunks.next() else { return 0 }
            buffer.copyBytes(from: chunk)
            return chunk.count
        }
        var fixes: [Fix] = []
        try FITDecoder(path: "-").decode(stream, into: &pipeline) { fixes.append($0) }
        try pipeline.finish { fixes.append($0) }
        let read = try TrackFiles.read(bytes, name: "hand.fit")
        #expect(fixes.map(\.time) == read.fixes.map(\.time))
        #expect(FITByteStream.crc16(Array("123456789".utf8)) == 0xBB3D)
    }

    @Test("a corrupt gzip file is named in the error, not zlib's <fd:N>")
    func gzipErrorNamesFile() throws {
        var bytes = try TrackFiles.gzip(Array(String(repeating: "$GPRMC,junk\n", count: 20_000).utf8))
        for i in 40..<60 { bytes[i] ^= 0x5A }
        let error = try #require(throws: TrackFileError.self) { try TrackFiles.read(bytes, name: "bad.nmea.gz") }
        #expect(!error.description.contains("<fd:"), "\(error)")
        #expect(error.description.contains("bad.nmea.gz:byte"), "\(error)")
    }
}

extension Array {
    func chunked(into size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
