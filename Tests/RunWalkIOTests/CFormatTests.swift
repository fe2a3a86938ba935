import Foundation
import RunWalkIO
import Testing

/// printf-style numbers without Foundation: the same bytes `String(format:)` wrote, since the
/// summary, status lines and reports are compared byte for byte.
@Suite("CFormat")
struct CFormatTests {
    @Test("rounds the exact binary value, as the C library does", arguments: [
        // 1.005 is 1.00499999… in binary; 0.125 and 2.5 are exact halves, rounded to even.
        ("%.2f", 1.005, "1.00"), ("%.2f", 0.125, "0.12"), ("%.0f", 2.5, "2"), ("%.1f", -0.04, "-0.0"),
        ("%.9f", 47.123456789012, "47.123456789"), ("%.2f km", 3861.3 / 1000, "3.86 km"),
    ])
    func fixed(format: String, value: Double, expected: String) {
        #expect(CFormat.string(format, value) == expected)
        #expect(CFormat.string(format, value) == String(format: format, value), "as Foundation wrote it")
    }

    @Test("a digit count given as an argument")
    func starPrecision() {
        #expect(CFormat.string("%.*f", Int32(3), 12.34567) == "12.346")
    }

    @Test("padded whole numbers")
    func integers() {
        #expect(CFormat.string("%ld:%02ld:%02ld", 1, 5, 3) == "1:05:03")
        #expect(CFormat.string("%ld:%02ld.%03ld", 4, 57, 0) == "4:57.000")
    }

    @Test("text longer than the first buffer comes out whole")
    func long() {
        let text = CFormat.string("%.100f", 1.0)
        #expect(text.count == 102)
        #expect(text.hasPrefix("1.000"))
    }
}

/// Trimming white space without Foundation's character sets.
@Suite("trimmingWhitespace")
struct WhitespaceTests {
    @Test("spaces, tabs and line breaks go from both ends, not from the middle", arguments: [
        (" skip\r\n", "skip"), ("\t a b \t", "a b"), ("", ""), (" \n ", ""), ("stop", "stop"),
    ])
    func trims(text: String, expected: String) {
        #expect(text.trimmingWhitespace() == expected)
    }
}

/// Plain words for the errors Foundation's file calls throw.
@Suite("FileErrorText")
struct FileErrorTextTests {
    @Test("a missing file, a folder read as a file, a write into a missing folder")
    func fileErrors() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runwalk-fileerror-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = #expect(throws: (any Error).self) { _ = try Data(contentsOf: folder.appendingPathComponent("none.nmea")) }
        #expect(missing.map(FileErrorText.reason) == "no such file or directory")
        let folderRead = #expect(throws: (any Error).self) { _ = try Data(contentsOf: folder) }
        #expect(folderRead.map(FileErrorText.reason) == "is a directory")
        let write = #expect(throws: (any Error).self) {
            try Data("x".utf8).write(to: folder.appendingPathComponent("no/such/folder.txt"))
        }
        #expect(write.map(FileErrorText.reason) == "no such file or directory")
    }
}
