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

    @Test("hands-free keys: notify, haptics, music")
    func handsFree() throws {
        let settings = try UserSettings(parsing: "notify = off\nhaptics = on\nmusic = /home/r/Music/run.m3u\nmusic.Galloway-3-1 = /m/g.m3u\n")
        #expect(settings.notify == false && settings.haptics == true && settings.music == "/home/r/Music/run.m3u")
        #expect(settings.workoutMusic == ["galloway-3-1": "/m/g.m3u"])
        #expect(throws: ConfigFileError.self) { try UserSettings(parsing: "music. = x") }
        #expect(UserSettings().notify == nil && UserSettings().haptics == nil && UserSettings().music == nil)
    }

    @Test("every mistake names its line and column", arguments: [
        ("language = de\nunits = furlongs", 2, 9, "units = furlongs: expected metric or imperial"),
        ("  volume = 3", 1, 3, "unknown setting \"volume\": expected one of language, units, voice, auto_pause, cue.transition, cue.countdown, cue.halfway, cue.split, cue.summary, cue.gps, cue.pause_resume, cue.complete, cue.target, cue.target_back, cue.hr_sensor, plan.done_fraction, notify, haptics, music, duck, hr, hr.max, hr.rest, hr.lthr, voice.hr, countdown, gps"),
        ("cue.split = maybe", 1, 13, "cue.split = maybe: expected on or off"),
        ("\n\n  language de", 3, 3, "expected key = value"),
        ("voice =   ", 1, 8, "voice needs a value"),
        ("voice = wav:", 1, 9, "voice = wav:: expected text, wav:FILE, speaker or off"),
        ("notify = sometimes", 1, 10, "notify = sometimes: expected on or off"),
        ("haptics = 1", 1, 11, "haptics = 1: expected on or off"),
    ])
    func mistakes(text: String, line: Int, column: Int, message: String) {
        #expect(throws: ConfigFileError(line: line, column: column, message: message)) { try UserSettings(parsing: text) }
    }
}
