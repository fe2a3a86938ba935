import Testing
@testable import RunWalkCore

/// High-rate logs whose sentences arrive out of order, within an epoch or across its
/// neighbours: each epoch comes out once, in time order, with its own position; a sentence
/// that comes after its epoch was reported is dropped and counted.
@Suite("NMEADecoder: sentences out of order")
struct NMEAReorderTests {
    /// The sentences of epoch `k` at `hz`: RMC, GGA, GSA, VTG; latitude moves with k.
    static func epoch(_ k: Int, hz: Int) -> [String] {
        let ms = 43_200_000 + k * 1000 / hz
        let hours = format2(ms / 3_600_000), minutes = format2(ms / 60_000 % 60)
        let seconds = format2(ms / 1000 % 60), hundredths = format2(ms % 1000 / 10)
        let time = "\(hours)\(minutes)\(seconds).\(hundredths)"
        let lat = "51" + (30.0 + Double(k) * 0.0001).formatted4
        return [
            NMEATest.sentence("GPRMC,\(time),A,\(lat),N,00007.5000,W,3.0,90.0,251126,,,A"),
            NMEATest.sentence("GPGGA,\(time),\(lat),N,00007.5000,W,1,08,0.9,20.0,M,47.0,M,,"),
            NMEATest.sentence("GPGSA,A,3,01,02,03,04,05,06,07,08,,,,,1.6,0.9,1.3"),
            NMEATest.sentence("GPVTG,90.0,T,,M,5.83,N,10.8,K,A"),
        ]
    }

    static func format2(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }

    /// Shuffles every epoch's sentences, and moves a timed sentence of the next epoch in front of
    /// the last one of this epoch about every third epoch.
    static func shuffled(epochs: Int, hz: Int, seed: UInt64) -> [String] {
        var rng = SeededGenerator(seed: seed)
        var lines: [String] = []
        for k in 0..<epochs {
            var sentences = epoch(k, hz: hz)
            // GSA and VTG carry no time: they stay behind a timed sentence of their epoch.
            let timed = Array(sentences[0..<2]).shuffled(using: &rng)
            sentences = [timed[0]] + ([timed[1]] + sentences[2...]).shuffled(using: &rng)
            lines += sentences
        }
        var i = 4
        while i + 1 < lines.count {
            if Int.random(in: 0..<3, using: &rng) == 0, lines[i].hasPrefix("$GPRMC") || lines[i].hasPrefix("$GPGGA") {
                lines.swapAt(i - 1, i)
            }
            i += 4
        }
        return lines
    }

    @Test("10 Hz and 5 Hz with shuffled sentences: every epoch once, in order, with its position",
          arguments: [10, 5], [1, 2, 3] as [UInt64])
    func shuffledEpochs(hz: Int, seed: UInt64) throws {
        let count = 200
        let (fixes, stats) = NMEATest.decode(Self.shuffled(epochs: count, hz: hz, seed: seed))
        let times = fixes.map(\.time.milliseconds)
        #expect(fixes.count == count, "one fix per epoch")
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "strictly increasing times")
        for (k, fix) in fixes.enumerated() {
            #expect(fix.time.millisecondOfDay == Int64(43_200_000 + k * 1000 / hz))
            let expected = 51 + (30.0 + Double(k) * 0.0001) / 60
            #expect(abs((fix.latitude ?? 0) - expected) < 1e-9, "epoch \(k)'s own position")
            #expect(fix.mode == .threeD)
            #expect(fix.speedMetresPerSecond != nil)
            // Like gpsd, the decoder learns from the first epochs which sentence ends a cycle; until
            // then what follows that sentence in its epoch is not in the report.
            if k >= 2 { #expect(fix.altitudeMSL == 20.0, "epoch \(k)") }
        }
        #expect(stats.epochs == count)
        #expect(stats.linesBad == 0)
    }

    @Test("a sentence for an epoch already reported is dropped and counted, not a new epoch")
    func lateSentence() throws {
        var lines: [String] = []
        for k in 0..<6 { lines += Self.epoch(k, hz: 10) }
        // Epoch 1's GGA again after epoch 5 started: far too late to merge.
        lines.insert(Self.epoch(1, hz: 10)[1], at: lines.count - 2)
        let (fixes, stats) = NMEATest.decode(lines)
        let expected: [Int64] = (0..<6).map { k in Int64(43_200_000 + k * 100) }
        let times: [Int64] = fixes.map { $0.time.millisecondOfDay }
        #expect(times == expected)
        #expect(stats.problems[.late] == 1, "the late sentence is counted")
        #expect(stats.linesBad == 0, "a late sentence is not a bad line")
    }

    @Test("a log that starts over far back (a restart) is reported again, as gpsd does")
    func restart() {
        var lines: [String] = []
        for k in 0..<40 { lines += Self.epoch(k, hz: 10) }
        for k in 0..<3 { lines += Self.epoch(k, hz: 10) }
        let (fixes, stats) = NMEATest.decode(lines)
        #expect(fixes.count == 43)
        #expect(stats.epochsLate == 0)
    }
}

private extension Double {
    /// `30.0012` → "30.0012" with four decimals, without Foundation.
    var formatted4: String {
        let scaled = Int((self * 10_000).rounded())
        let fraction = String(scaled % 10_000)
        return "\(scaled / 10_000)." + String(repeating: "0", count: 4 - fraction.count) + fraction
    }
}
