import Testing
@testable import RunWalkCore

@Suite("SettingsDocument")
struct SettingsDocumentTests {
    static let file = """
        # RunWalk settings, by hand
        language = de

        units = metric      # km for now
        cue.split = off
        music = ~/Music/run.m3u   # keys the app has no control for
        hr.max = 188

        """

    @Test("a changed key is replaced on its own line; comments, blanks, order and other keys are kept")
    func replacesInPlace() throws {
        var document = try SettingsDocument(text: Self.file)
        try document.set("units", to: "imperial")
        #expect(document.text == """
            # RunWalk settings, by hand
            language = de

            units = imperial    # km for now
            cue.split = off
            music = ~/Music/run.m3u   # keys the app has no control for
            hr.max = 188

            """)
        #expect(document.settings.units == .imperial && document.settings.music == "~/Music/run.m3u")
        #expect(try UserSettings(parsing: document.text) == document.settings)
    }

    @Test("a key the file does not set is appended at the end")
    func appendsNewKey() throws {
        var document = try SettingsDocument(text: "# mine\nlanguage = en")
        try document.set("auto_pause", to: "on")
        try document.set("countdown", to: "5")
        #expect(document.text == "# mine\nlanguage = en\nauto_pause = on\ncountdown = 5")
        var empty = try SettingsDocument(text: "")
        try empty.set("gps", to: "gpsd://127.0.0.1:2947")
        #expect(empty.text == "gps = gpsd://127.0.0.1:2947\n")
        #expect(empty.settings.gps == "gpsd://127.0.0.1:2947")
    }

    @Test("a value the command line would refuse is never taken", arguments: [
        ("units", "furlongs"), ("duck", "-90"), ("countdown", "61"), ("gps", "bluetooth"), ("hr", "nearby"),
        ("plan.done_fraction", "1.5"), ("voice", "loud"), ("units", ""), ("music", "a # b"), ("language", "de\nunits = x"),
    ])
    func refusesBadValues(key: String, value: String) throws {
        var document = try SettingsDocument(text: Self.file)
        #expect(throws: ConfigFileError.self) { try document.set(key, to: value) }
        #expect(document.text == Self.file, "nothing changed")
        #expect(try SettingsDocument(text: Self.file) == document)
    }

    @Test("the error of a refused value names the line the key is on")
    func refusalNamesLine() throws {
        var document = try SettingsDocument(text: Self.file)
        let error = try #require(throws: ConfigFileError.self) { try document.set("units", to: "furlongs") }
        #expect(error.line == 4 && error.message == "units = furlongs: expected metric or imperial")
    }

    @Test("a half-edited file is refused with its line and column, as the command line refuses it")
    func refusesBrokenFile() throws {
        let error = try #require(throws: ConfigFileError.self) { try SettingsDocument(text: "language = de\nunits = \n") }
        #expect(error.line == 2 && error.message == "units needs a value")
    }

    @Test("the last of two lines for a key is the one changed (it is the one that counts)")
    func lastLineWins() throws {
        var document = try SettingsDocument(text: "units = metric\nunits = imperial # later\n")
        try document.set("units", to: "metric")
        #expect(document.text == "units = metric\nunits = metric   # later\n")
        #expect(document.settings.units == .metric)
    }

    @Test("CRLF files keep CRLF; a comment without room moves one space after the value")
    func lineEndsAndLongValues() throws {
        var document = try SettingsDocument(text: "voice = off # quiet\r\nlanguage = en\r\n")
        try document.set("voice", to: "wav:/tmp/a-long-voice-track.wav")
        #expect(document.text == "voice = wav:/tmp/a-long-voice-track.wav # quiet\r\nlanguage = en\r\n")
    }

    @Test("countdown and gps are settings the command line reads")
    func newKeys() throws {
        let settings = try UserSettings(parsing: "countdown = 0\ngps = serial:/dev/ttyUSB0@4800\n")
        #expect(settings.countdownSeconds == 0 && settings.gps == "serial:/dev/ttyUSB0@4800")
        #expect(throws: ConfigFileError.self) { try UserSettings(parsing: "gps = file:") }
        #expect(throws: ConfigFileError.self) { try UserSettings(parsing: "countdown = -1") }
    }
}
