import Testing
import RunWalkCore
@testable import RunWalkIO

@Suite("Heart rate in fix lines")
struct HeartRateFixLineTests {
    @Test("fixes --format jsonl adds \"hr\" when the fix has one; both formatters agree")
    func jsonl() throws {
        var fix = Fix(time: UTCTime(milliseconds: 1_775_975_400_000))
        fix.latitude = 47.37
        fix.longitude = 8.54
        fix.mode = .twoD
        fix.heartRateBPM = 142
        #expect(FixFormat.jsonLine(fix) == "{\"time\":\"2026-04-12T06:30:00.000Z\",\"lat\":47.37,\"lon\":8.54,\"mode\":2,\"hr\":142}")
        var without = fix
        without.heartRateBPM = nil
        #expect(!FixFormat.jsonLine(without).contains("hr"))
        #expect(try FixLineFormatterTests.formatted([fix, without], csv: false) == FixLineFormatterTests.reference([fix, without], csv: false))
    }
}
