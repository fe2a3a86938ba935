import Testing
@testable import RunWalkCore

@Suite("UserText: input text made safe for messages")
struct UserTextTests {
    @Test("control characters are escaped", arguments: [
        ("a\u{1B}[2Jb", "a\\e[2Jb"), ("tab\there", "tab\\there"), ("bell\u{07}", "bell\\x07"),
        ("cr\r", "cr\\r"), ("del\u{7F}", "del\\x7f"), ("c1\u{9B}", "c1\\x9b"), ("rtl\u{202E}x", "rtl\\u{202e}x"),
        ("plain ä €", "plain ä €"),
    ])
    func escapes(input: String, expected: String) {
        #expect(UserText.printable(input) == expected)
    }

    @Test("long values are cut to 80 characters and …")
    func shortens() {
        let long = String(repeating: "x", count: 5_000_000)
        let shown = UserText.printable(long)
        #expect(shown == String(repeating: "x", count: 80) + "…")
        #expect(UserText.printable(String(repeating: "y", count: 80)) == String(repeating: "y", count: 80))
    }

    @Test("whole messages keep their newlines")
    func keepsNewlines() {
        #expect(UserText.escapingControls("line 1\n  \u{1B}]0;x\u{07}") == "line 1\n  \\e]0;x\\x07")
    }
}
