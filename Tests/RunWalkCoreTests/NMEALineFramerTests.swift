import Testing
@testable import RunWalkCore

@Suite("NMEALineFramer")
struct NMEALineFramerTests {
    /// Lines with every kind of ending, some far beyond NMEA's 82 characters.
    static func stream(seed: UInt64) -> (bytes: [UInt8], lines: [[UInt8]]) {
        var rng = SeededGenerator(seed: seed)
        var bytes: [UInt8] = []
        var lines: [[UInt8]] = []
        var afterCR = false
        for _ in 0..<300 {
            // An empty line after a lone CR would read as CR LF: one line ending, not two.
            let length = Int.random(in: (afterCR ? 1 : 0)...(Bool.random(using: &rng) ? 90 : 400), using: &rng)
            let line = (0..<length).map { _ in UInt8.random(in: 0x20...0x7E, using: &rng) }
            lines.append(line)
            bytes += line
            let ending = Int.random(in: 0..<3, using: &rng)
            bytes += [[0x0D, 0x0A], [0x0A], [0x0D]][ending]
            afterCR = ending == 2
        }
        return (bytes, lines)
    }

    static func frame(_ bytes: [UInt8], chunkSizes: inout SeededGenerator, maximum: Int = 4096)
        -> [NMEALineFramer.Line] {
        var framer = NMEALineFramer(maximumLineLength: maximum)
        var out: [NMEALineFramer.Line] = []
        var start = 0
        while start < bytes.count {
            let size = Int.random(in: 1...97, using: &chunkSizes)
            let end = min(bytes.count, start + size)
            framer.feed(bytes[start..<end]) { out.append($0) }
            start = end
        }
        framer.finish { out.append($0) }
        return out
    }

    @Test("random chunkings give the same lines as one read", arguments: [1, 2, 3, 42, 1000] as [UInt64])
    func randomChunkings(seed: UInt64) {
        let (bytes, lines) = Self.stream(seed: seed)
        var whole = NMEALineFramer()
        var expected: [NMEALineFramer.Line] = []
        whole.feed(bytes) { expected.append($0) }
        whole.finish { expected.append($0) }
        #expect(expected.map(\.bytes) == lines, "one read splits at CR LF, LF and lone CR")
        var sizes = SeededGenerator(seed: seed &* 31)
        for _ in 0..<5 {
            let chunked = Self.frame(bytes, chunkSizes: &sizes)
            #expect(chunked == expected)
        }
    }

    @Test("CR LF split across two reads is one line ending")
    func crlfAcrossReads() {
        var framer = NMEALineFramer()
        var out: [[UInt8]] = []
        framer.feed(Array("$GPGGA,1\r".utf8)) { out.append($0.bytes) }
        framer.feed(Array("\n$GPRMC,2\n".utf8)) { out.append($0.bytes) }
        framer.finish { out.append($0.bytes) }
        #expect(out == [Array("$GPGGA,1".utf8), Array("$GPRMC,2".utf8)])
    }

    @Test("an overlong line without a sentence is flagged, the next one is whole")
    func overlong() {
        let long = [UInt8](repeating: 0x41, count: 250)
        var sizes = SeededGenerator(seed: 7)
        let out = Self.frame(long + [0x0A] + Array("$GPGGA\n".utf8), chunkSizes: &sizes, maximum: 100)
        #expect(out.count == 2)
        #expect(out.first?.bytes.isEmpty == true)
        #expect(out.first?.truncated == true)
        #expect(out.last == .init(bytes: Array("$GPGGA".utf8), truncated: false))
    }

    @Test("an overlong line keeps its last sentence; a sentence itself too long is cut and flagged",
          arguments: [1, 2, 3, 4] as [UInt64])
    func overlongWithSentence(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let junk = (0..<300).map { _ in UInt8.random(in: 0x80...0xFF, using: &rng) }
        let sentence = Array("$GPGGA,120000,5130.0000,N".utf8)
        let stray = Array("$GPTOOLONG,".utf8) + [UInt8](repeating: 0x31, count: 200)
        let bytes = junk + Array("$x".utf8) + junk + sentence + [0x0D, 0x0A] + junk + stray + [0x0A]
        var sizes = SeededGenerator(seed: seed &* 17)
        for _ in 0..<5 {
            let out = Self.frame(bytes, chunkSizes: &sizes, maximum: 100)
            #expect(out.map(\.bytes) == [sentence, Array(stray[0..<100])])
            #expect(out.map(\.truncated) == [false, true])
        }
    }

    @Test("a last line without a terminator comes out on finish")
    func unterminated() {
        var framer = NMEALineFramer()
        var out: [[UInt8]] = []
        framer.feed(Array("a\nb".utf8)) { out.append($0.bytes) }
        #expect(out == [[0x61]])
        framer.finish { out.append($0.bytes) }
        #expect(out == [[0x61], [0x62]])
    }
}
