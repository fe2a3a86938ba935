import Foundation
import RunWalkCore
import RunWalkReport
import Testing

@Suite("HTMLReport")
struct HTMLReportTests {
    static let chromium = Tool.find("chromium") ?? Tool.find("chromium-browser")

    @Test("self-contained: no script, no external resource, no network reference",
          arguments: ["track-loop", "trail-10hz", "city-stopgo", "demo-short"])
    func selfContained(name: String) async throws {
        let html = HTMLReport.render(try await SampleSession.named(name))
        Tool.keep(Data(html.utf8), as: "\(name).html")
        for forbidden in ["<script", "src=", "href=", "url(", "@import", "http://", "https://", "<link", "<iframe"] {
            #expect(!html.contains(forbidden), "found \(forbidden)")
        }
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("prefers-color-scheme:dark"))
        #expect(html.contains("name=\"viewport\""))
    }

    @Test("has every part: totals, pace, speed, elevation when present, route, intervals and splits")
    func hasEveryPart() async throws {
        let trail = try await SampleSession.named("trail-10hz")
        let html = HTMLReport.render(trail)
        for part in ["class=\"tiles\"", "series pace", "series speed", "series elevation", "class=\"route\"",
                     "class=\"intervals\"", "class=\"splits\"", "start-marker", "finish-marker", "km-marker"] {
            #expect(html.contains(part), "missing \(part)")
        }
        #expect(html.components(separatedBy: "<tr class=\"row-").count - 1 == trail.summary.phases.count)
        #expect(html.components(separatedBy: "class=\"km-marker\"").count - 1 == Int(trail.summary.distanceMetres / 1000))
        #expect(html.components(separatedBy: "<rect class=\"band ").count - 1 == 3 * trail.summary.phases.count)
    }

    @Test("no elevation chart when the receiver gave no altitude")
    func noElevationWithoutAltitude() async throws {
        var session = try await SampleSession.named("demo-short")
        session.track = session.track.map { var p = $0; p.altitudeMSL = nil; return p }
        let html = HTMLReport.render(session)
        #expect(!html.contains("series elevation"))
        #expect(html.contains("series pace"))
    }

    @Test("a session without track points still renders its totals and tables, and every export stays well-formed")
    func emptyTrack() async throws {
        var session = try await SampleSession.named("demo-short")
        session.track = []
        let html = HTMLReport.render(session)
        #expect(!html.contains("class=\"route\""))
        #expect(!html.contains("series pace"))
        #expect(html.contains("class=\"intervals\""))
        #expect(GPXWriter.render(session).contains("<trk>"))
        #expect(!GPXWriter.render(session).contains("<trkseg>"), "no empty segment")
        #expect(!TCXWriter.render(session).contains("<Track>"), "no empty Track (the schema needs a point)")
        #expect(FITEncoder.crc16(FITActivityWriter.render(session)) == 0)
    }

    @Test("user text is escaped")
    func escapesUserText() async throws {
        var session = try await SampleSession.named("demo-short")
        session.summary.workout = "<script>alert('x')</script> & \"quotes\""
        let html = HTMLReport.render(session)
        #expect(!html.contains("<script"))
        #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quotes&quot;"))
    }

    @Test("imperial units show miles and minutes per mile")
    func imperial() async throws {
        var session = try await SampleSession.named("track-loop")
        session.summary.units = .imperial
        let html = HTMLReport.render(session)
        #expect(html.contains("min/mi"))
        #expect(html.contains("<small>mi</small>"))
    }

    /// Renders a sample's report in headless Chromium and returns the PNG's pixel statistics.
    static func screenshot(_ name: String, width: Int, height: Int, dark: Bool = false) async throws -> PNGStats.Result {
        let folder = try Tool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("\(name).html")
        let html = HTMLReport.render(try await SampleSession.named(name))
        try html.write(to: page, atomically: true, encoding: .utf8)
        let png = folder.appendingPathComponent("\(name).png")
        var arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
                         "--no-first-run", "--user-data-dir=\(folder.appendingPathComponent("profile").path)",
                         "--window-size=\(width),\(height)", "--screenshot=\(png.path)"]
        if dark { arguments.append("--force-dark-mode") }
        arguments.append(page.absoluteString)
        let result = try await Tool.run(try #require(chromium), arguments, timeoutSeconds: 90)
        try #require(FileManager.default.fileExists(atPath: png.path), "chromium wrote no PNG: \(result.stderr.suffix(600))")
        let suffix = "\(width)\(dark ? "-dark" : "")"
        Tool.keep(Data(html.utf8), as: "\(name).html")
        if let data = FileManager.default.contents(atPath: png.path) { Tool.keep(data, as: "\(name)-\(suffix).png") }
        return try await PNGStats.measure(png, colours: [
            "pace": dark ? [255, 146, 43] : [232, 89, 12],
            "speed": dark ? [77, 171, 247] : [28, 126, 214],
            "elevation": dark ? [81, 207, 102] : [47, 158, 68],
            "map-fast": [178, 24, 43], "map-mid": [240, 140, 0], "map-slow": [24, 100, 171],
        ])
    }

    @Test("headless Chromium renders the page non-blank with the charts and the map",
          .enabled(if: chromium != nil && Tool.python != nil, "needs chromium and python3 (scripts/test installs them)"),
          arguments: [("trail-10hz", 1000, false), ("track-loop", 390, true)])
    func rendersInChromium(name: String, width: Int, dark: Bool) async throws {
        let stats = try await Self.screenshot(name, width: width, height: 2200, dark: dark)
        #expect(stats.width == width && stats.height == 2200)
        #expect(stats.distinct > 200, "only \(stats.distinct) colours: blank page?")
        #expect(stats.non_background > 0.25, "mostly background: \(stats.non_background)")
        #expect(stats.counts["pace", default: 0] > 400, "pace line pixels: \(stats.counts)")
        #expect(stats.counts["speed", default: 0] > 400, "speed line pixels: \(stats.counts)")
        if name == "trail-10hz" { #expect(stats.counts["elevation", default: 0] > 400, "elevation: \(stats.counts)") }
        let mapColours = ["map-fast", "map-mid", "map-slow"].filter { stats.counts[$0, default: 0] > 100 }
        #expect(mapColours.count >= 2, "route colours: \(stats.counts)")
        if dark { #expect(stats.background.reduce(0, +) < 150, "dark background: \(stats.background)") }
    }
}
