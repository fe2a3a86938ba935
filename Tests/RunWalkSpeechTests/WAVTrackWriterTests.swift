import Foundation
import RunWalkCore
import Testing
@testable import RunWalkSpeech

extension SpeechSuites {
    @Suite("WAVTrackWriter")
    struct WAVTrackWriterTests {
        @Test("clips land at their sample, silence between, padded to the session's length")
        func timeline() throws {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("rw-wav-\(getpid()).wav").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            let clip = try EspeakSynthesizer.shared().clip("Run for 90 seconds.", language: .en)
            let writer = try WAVTrackWriter(path: path)
            try writer.add(clip, at: 1.0)
            try writer.add(clip, at: 1.5)  // inside the first: moved after it, never mixed
            try writer.finish(totalSeconds: 10)
            #expect(writer.cuesMoved == 1)
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(data.count == 44 + 10 * 22050 * 2)
            #expect(String(decoding: data[0..<4], as: UTF8.self) == "RIFF")
            #expect(String(decoding: data[8..<16], as: UTF8.self) == "WAVEfmt ")
            let samples = data.dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
            #expect(samples[..<22050].allSatisfy { $0 == 0 })
            #expect(Array(samples[22050..<22050 + clip.samples.count]) == clip.samples)
            let second = 22050 + clip.samples.count
            #expect(Array(samples[second..<second + clip.samples.count]) == clip.samples)
        }

        @Test("a path that cannot be written is a clear error")
        func badPath() {
            #expect(throws: SpeechError.self) { try WAVTrackWriter(path: "/no/such/dir/out.wav") }
        }
    }
}
