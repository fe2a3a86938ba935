import Foundation
import Testing

/// The house rule "no source file over 400 lines", checked on the repository's own Sources folder
/// so that a file growing past it fails the tests, not a later review.
@Suite("Source file sizes")
struct SourceFileSizeTests {
    static let limit = 400
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")

    /// Every file under `folder` (recursively) whose name ends in one of `extensions`, with its line count.
    static func lineCounts(under folder: URL, extensions: Set<String> = ["swift", "c", "h"]) throws -> [(path: String, lines: Int)] {
        let enumerator = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]))
        var counts: [(path: String, lines: Int)] = []
        for case let url as URL in enumerator where extensions.contains(url.pathExtension) {
            let data = try Data(contentsOf: url)
            let newlines = data.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            // A last line without its newline still counts (as `wc -l` would not).
            let lines = newlines + (data.last.map { $0 == UInt8(ascii: "\n") ? 0 : 1 } ?? 0)
            counts.append((String(url.path.dropFirst(folder.path.count + 1)), lines))
        }
        return counts.sorted { $0.path < $1.path }
    }

    @Test("no file under Sources is over 400 lines")
    func noFileOverLimit() throws {
        let counts = try Self.lineCounts(under: Self.sources)
        #expect(counts.count > 100, "Sources holds the package's files (found \(counts.count) under \(Self.sources.path))")
        let over = counts.filter { $0.lines > Self.limit }
        #expect(over.isEmpty, "over \(Self.limit) lines: \(over.map { "\($0.path) (\($0.lines))" }.joined(separator: ", "))")
    }

    @Test("the count is `wc -l`'s, plus a last line without its newline")
    func counting() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("source-size-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("A"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("a\nb\n".utf8).write(to: folder.appendingPathComponent("A/two.swift"))
        try Data("a\nb\nc".utf8).write(to: folder.appendingPathComponent("three.swift"))
        try Data("x\n".utf8).write(to: folder.appendingPathComponent("notes.md"))
        let counts = try Self.lineCounts(under: folder)
        #expect(counts.map(\.path) == ["A/two.swift", "three.swift"])
        #expect(counts.map(\.lines) == [2, 3])
    }
}
