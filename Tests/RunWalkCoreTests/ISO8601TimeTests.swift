import RunWalkCore
import Testing

@Suite("ISO 8601 times")
struct ISO8601TimeTests {
    @Test("zones, offsets and fractions give the same instant", arguments: [
        "2026-04-12T06:30:01.250Z", "2026-04-12T08:30:01.250+02:00", "2026-04-12T08:30:01,250+0200",
        "2026-04-12t06:30:01.25z", "2026-04-12T01:30:01.250-05",
    ])
    func sameInstant(text: String) throws {
        let parsed = try #require(ISO8601Time.parse(text))
        #expect(parsed.zoned)
        #expect(parsed.time.iso8601() == "2026-04-12T06:30:01.250Z")
    }

    @Test("a time without a zone is read and said to be zone-less; parseZoned refuses it")
    func zoneless() throws {
        let parsed = try #require(ISO8601Time.parse("2026-04-12T06:30:01"))
        #expect(!parsed.zoned)
        #expect(parsed.time.iso8601() == "2026-04-12T06:30:01.000Z")
        #expect(ISO8601Time.parseZoned("2026-04-12T06:30:01") == nil)
    }

    @Test("what is not a date-time is nil", arguments: [
        "", "2026-04-12", "2026-13-12T06:30:01Z", "2026-04-12T24:00:00Z", "2026-04-12T06:30:01.Z",
        "2026-04-12T06:30:01+15:00", "2026-04-12T06:30:01Zjunk", "12/04/2026 06:30",
    ])
    func rejects(text: String) {
        #expect(ISO8601Time.parse(text) == nil)
    }
}
