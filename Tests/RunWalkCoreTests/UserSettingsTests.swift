import Testing
@testable import RunWalkCore

@Suite("UserSettings")
struct UserSettingsTests {
    @Test("keys, comments, blanks and CRLF line ends")
    func parses() throws {
        let settings = try UserSettings(parsing: "# RunWalk\r\n\r\n  language = de \r\nunits=imperial # miles\r\nvoice = wav:/tmp/a b.wav\r\ncue.split = off\r\ncue.summary = on\r\n")
        #expect(settings.language == .de && settings.units == .imperial && settings.voice == "wav:/tmp/a b.wav")
        #expect(settings.enabledCues == CueKind.defaultEnabled.subtracting([.split]).union([.summary]))
        #expect(try UserSettings(parsing: "") == UserSettings())
        #expect(UserSettings().enabledCues == CueKind.defaultEnabled)
    }

    @Test("every mistake names its line and column", arguments: [
        ("language = de\nunits = furlongs", 2, 9, "units = furlongs: expected metric or imperial"),
        ("  volume = 3", 1, 3, "unknown setting \"volume\": expected one of language, units, voice, auto_pause, cue.transition, cue.countdown, cue.halfway, cue.split, cue.summary, cue.gps, cue.pause_resume, cue.complete, plan.done_fraction, duck"),
        ("cue.split = maybe", 1, 13, "cue.split = maybe: expected on or off"),
        ("\n\n  language de", 3, 3, "expected key = value"),
        ("voice =   ", 1, 8, "voice needs a value"),
        ("voice = wav:", 1, 9, "voice = wav:: expected text, wav:FILE, speaker or off"),
    ])
    func mistakes(text: String, line: Int, column: Int, message: String) {
        #expect(throws: ConfigFileError(line: line, column: column, message: message)) { try UserSettings(parsing: text) }
    }
}
