import Foundation

/// Measures a steady "music" tone under speech in a recording of a sink's monitor.
///
/// The tone sits at 15 kHz, above everything espeak-ng's 22 050 Hz speech can hold once the
/// server resamples it to 44 100 Hz, so a single-bin DFT (Goertzel) over windows of a whole
/// number of tone cycles reads the tone's level untouched by the speech. Where the speech is
/// comes from the signal with the tone filtered out (two 3-tap moving
/// averages, whose zero near 14.7 kHz takes the tone down by about 64 dB and leaves speech), so a
/// window in which the tone's volume steps is not taken for speech.
struct ToneMeter {
    static let rate = 44_100
    static let toneHz = 15_000.0
    /// 50 ms: 750 whole cycles of the tone, so the bin holds it with no leakage.
    static let window = 2_205

    struct Window { var seconds: Double; var toneDecibels: Double; var speechRMS: Double }
    /// A stretch of speech (a cue), in window numbers.
    struct Cue { var first: Int; var last: Int }

    let windows: [Window]

    init(samples: [Int16]) {
        var windows: [Window] = []
        var smoothed = samples.map(Double.init)
        for _ in 0..<2 {
            let input = smoothed
            for index in input.indices.dropFirst().dropLast() { smoothed[index] = (input[index - 1] + input[index] + input[index + 1]) / 3 }
        }
        let coefficient = 2 * cos(2 * Double.pi * Self.toneHz / Double(Self.rate))
        var start = 0
        while start + Self.window <= samples.count {
            var s1 = 0.0, s2 = 0.0, speechPower = 0.0
            for index in start..<start + Self.window {
                let s0 = Double(samples[index]) + coefficient * s1 - s2
                s2 = s1
                s1 = s0
                speechPower += smoothed[index] * smoothed[index]
            }
            let binPower = max(0, s1 * s1 + s2 * s2 - coefficient * s1 * s2)
            let amplitude = binPower.squareRoot() * 2 / Double(Self.window)
            windows.append(Window(seconds: Double(start) / Double(Self.rate),
                                  toneDecibels: 20 * log10(max(amplitude, 1e-3)), speechRMS: (speechPower / Double(Self.window)).squareRoot()))
            start += Self.window
        }
        self.windows = windows
    }

    /// Reads a raw s16le mono recording.
    init(file: URL) throws {
        let data = try Data(contentsOf: file)
        self.init(samples: data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) })
    }

    /// The cues: runs of windows with speech, pauses between words (under 0.6 s) bridged.
    var cues: [Cue] {
        var cues: [Cue] = []
        // The first windows may hold the recorder's start-up glitch, never a cue.
        for (index, window) in windows.enumerated() where index >= 4 && window.speechRMS > 300 {
            if let last = cues.last, index - last.last <= 12 {
                cues[cues.count - 1].last = index
            } else {
                cues.append(Cue(first: index, last: index))
            }
        }
        return cues
    }

    /// The tone's median level over `range` of windows.
    func medianDecibels(_ range: Range<Int>) -> Double? {
        let lower = max(0, range.lowerBound), upper = min(windows.count, range.upperBound)
        guard lower < upper else { return nil }
        let levels = windows[lower..<upper].map(\.toneDecibels).sorted()
        return levels.isEmpty ? nil : levels[levels.count / 2]
    }

    /// Windows (by number) whose tone is off `reference + offset` by more than `tolerance` dB.
    func outliers(_ range: Range<Int>, reference: Double, offset: Double, tolerance: Double) -> [String] {
        windows.indices.clamped(to: range).compactMap { index in
            let change = windows[index].toneDecibels - reference
            guard abs(change - offset) > tolerance else { return nil }
            return String(format: "%.2f s: %+.2f dB", windows[index].seconds, change)
        }
    }
}

/// A mono 44.1 kHz WAV of the 15 kHz "music" tone.
enum ToneFile {
    static func write(to url: URL, seconds: Int, amplitude: Double = 9_000) throws {
        let count = ToneMeter.rate * seconds
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36 + count * 2))
        data.append(contentsOf: Array("WAVEfmt ".utf8)); append(UInt32(16)); append(UInt16(1)); append(UInt16(1))
        append(UInt32(ToneMeter.rate)); append(UInt32(ToneMeter.rate * 2)); append(UInt16(2)); append(UInt16(16))
        data.append(contentsOf: Array("data".utf8)); append(UInt32(count * 2))
        var samples = [Int16](repeating: 0, count: count)
        for index in samples.indices {
            samples[index] = Int16(amplitude * sin(2 * Double.pi * ToneMeter.toneHz * Double(index) / Double(ToneMeter.rate)))
        }
        samples.withUnsafeBytes { data.append(contentsOf: $0) }
        try data.write(to: url)
    }
}
