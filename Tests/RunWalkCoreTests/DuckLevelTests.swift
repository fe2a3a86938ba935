import Testing
@testable import RunWalkCore

@Suite("DuckLevel")
struct DuckLevelTests {
    @Test("off, plain numbers and dB suffixes are read", arguments: [
        ("off", DuckLevel.off), ("-12", .decibels(-12)), ("-12dB", .decibels(-12)), ("-6.5 dB", .decibels(-6.5)),
        (" -20db ", .decibels(-20)), ("0", .decibels(0)), ("-60", .decibels(-60)),
    ])
    func reads(text: String, level: DuckLevel) {
        #expect(DuckLevel.parse(text) == level, "\(text)")
    }

    @Test("raising, too quiet, and words are refused", arguments: ["12", "+3", "-61", "loud", "", "-12 dBA", "nan", "-inf", "0x10"])
    func refuses(text: String) {
        #expect(DuckLevel.parse(text) == nil, "\(text)")
    }

    @Test("only a level below 0 dB lowers anything; the default is -12 dB")
    func lowering() {
        #expect(DuckLevel.off.loweringDecibels == nil)
        #expect(DuckLevel.decibels(0).loweringDecibels == nil)
        #expect(DuckLevel.decibels(-9).loweringDecibels == -9)
        #expect(DuckLevel.standard == .decibels(-12))
    }

    @Test("the settings file takes duck, and a wrong value names its line and column")
    func settings() throws {
        #expect(try UserSettings(parsing: "voice = speaker\nduck = -9 dB\n").duck == .decibels(-9))
        #expect(try UserSettings(parsing: "duck = off").duck == .off)
        #expect(try UserSettings(parsing: "language = de").duck == nil)
        #expect(UserSettings.keys.contains("duck"))
        do {
            _ = try UserSettings(parsing: "units = metric\nduck =  loud\n")
            Issue.record("duck = loud was accepted")
        } catch {
            #expect(error.line == 2 && error.column == 9, "\(error)")
            #expect(error.message.contains("expected off or a level in dB"), "\(error.message)")
        }
    }
}
