import Foundation
import RunWalkCore
import RunWalkReport
import Testing

/// Issue 33's review leftovers: the pace chart shades each phase's pace band (and the heart-rate
/// chart a heart-rate band), and at 360 px the intervals table's target and heart-rate columns fit
/// without sideways scrolling.
@Suite("Target bands in the HTML report")
struct TargetChartTests {
    static let banded = "10m warmup, 6x(3m run @ 5:45-6:15/km, 2m walk), 5m cooldown"

    /// One shaded band as drawn: SVG units, the plot being 1000 × 1000.
    struct Area: Equatable { var x, y, width, height: Double }

    /// The `<figure>` of the chart with `cssClass` ("pace", "heart"), or nil.
    static func figure(_ html: String, _ cssClass: String) -> String? {
        guard let start = html.range(of: "<figure class=\"chart chart-\(cssClass)\">") else { return nil }
        guard let end = html[start.upperBound...].range(of: "</figure>") else { return nil }
        return String(html[start.lowerBound..<end.upperBound])
    }

    /// The target bands shaded in a chart's figure.
    static func areas(_ figure: String) -> [Area] {
        figure.components(separatedBy: "<rect class=\"target-band\" ").dropFirst().compactMap { rest in
            func number(_ name: String) -> Double? {
                guard let start = rest.range(of: "\(name)=\"") else { return nil }
                return Double(rest[start.upperBound...].prefix { $0 != "\"" })
            }
            guard let x = number("x"), let y = number("y"), let width = number("width"), let height = number("height") else { return nil }
            return Area(x: x, y: y, width: width, height: height)
        }
    }

    @Test("the pace chart shades each run's pace band over that run, and the legend names it; a plain run has none")
    func paceBands() async throws {
        let session = try await SampleSession.replay(path: SampleSession.trackPath("city-stopgo"), workout: Self.banded)
        let html = try await offPool { HTMLReport.render(session) }
        let pace = try #require(Self.figure(html, "pace"))
        let areas = Self.areas(pace)
        let runs = session.summary.phases.filter { $0.target != nil }
        #expect(runs.count == 6 && areas.count == 6, "\(areas)")
        let duration = max(session.elapsedSeconds, session.track.last?.elapsedSeconds ?? 0)
        for (area, run) in zip(areas, runs) {
            #expect(abs(area.x - run.startSeconds / duration * 1000) < 0.2, "band starts with its run: \(area) \(run.startSeconds)")
            #expect(abs(area.width - run.durationSeconds / duration * 1000) < 0.2, "and lasts as long: \(area)")
            #expect(area.y > 0 && area.y + area.height < 1000 && area.height > 20, "the band lies inside the plot: \(area)")
        }
        #expect(Set(areas.map(\.y)).count == 1, "one band, one height: \(areas)")
        #expect(html.contains("<i class=\"chip key-target\"></i>target band"))
        #expect(Self.figure(html, "speed").map(Self.areas)?.isEmpty == true, "pace bands are drawn on the pace chart only")
        let plain = try await SampleSession.named("city-stopgo")
        let without = try await offPool { HTMLReport.render(plain) }
        #expect(!without.contains("<rect class=\"target-band\"") && !without.contains("<i class=\"chip key-target\">"))
    }

    @Test("a band far from the pace that was run is still drawn whole, not pinned to the chart's edge")
    func farBand() async throws {
        let session = try await SampleSession.replay(path: SampleSession.trackPath("city-stopgo"),
                                                     workout: "10m warmup, 2x(3m run @ 9:00-9:30/km, 2m walk)")
        let html = try await offPool { HTMLReport.render(session) }
        let areas = Self.areas(try #require(Self.figure(html, "pace")))
        #expect(areas.count == 2)
        for area in areas { #expect(area.y > 0 && area.y + area.height < 1000 && area.height > 20, "\(area)") }
    }

    @Test("a heart-rate band is shaded on the heart-rate chart")
    func heartRateBands() async throws {
        var session = try await HeartRateExportTests.session()
        session.summary.heartRateAverage = 145
        session.summary.heartRateMax = 170
        let runs = session.summary.phases.indices.filter { session.summary.phases[$0].kind == .run }
        for i in runs { session.summary.phases[i].setTarget(.heartRate(low: 140, high: 150), times: .init()) }
        let final = session
        let html = try await offPool { HTMLReport.render(final) }
        let areas = Self.areas(try #require(Self.figure(html, "heart")))
        #expect(areas.count == runs.count && !runs.isEmpty)
        #expect(Self.figure(html, "pace").map(Self.areas)?.isEmpty == true, "no pace band in this workout")
    }

    // MARK: - In Chromium, at a real 360 px

    /// A session with pace bands and heart rate: the widest intervals table there is.
    static func widest() async throws -> RecordedSession {
        var session = try await SampleSession.replay(path: SampleSession.trackPath("city-stopgo"), workout: Self.banded)
        for i in session.track.indices { session.track[i].heartRateBPM = 120 + 40 * i / max(1, session.track.count - 1) }
        session.summary.heartRateAverage = 141
        session.summary.heartRateMax = 160
        session.summary.heartRateZoneSeconds = [100, 600, 900, 700, 300]
        for i in session.summary.phases.indices {
            session.summary.phases[i].heartRateAverage = 130 + Double(i)
            session.summary.phases[i].heartRateMax = 140 + i
        }
        return session
    }

    /// Headless Chromium will not lay a window out narrower than 500 CSS px (a 360 px screenshot
    /// is a 500 px layout cut off on the right), so the report is shown in an iframe of exactly
    /// `width` × `height`; a script of the harness (the report has none) measures it after load
    /// and scrolls it to `scrollTo` (a CSS selector) for the screenshot.
    static func harness(_ html: String, width: Int, height: Int, scrollTo: String? = nil) -> String {
        let srcdoc = html.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
        let scroll = scrollTo.map { "const t = d.querySelector('\($0)'); if (t) f.contentWindow.scrollTo(0, t.getBoundingClientRect().top - 8);" } ?? ""
        return """
        <!DOCTYPE html><html><head><style>html,body{margin:0;overflow:hidden}iframe{border:0;display:block}</style></head>
        <body><iframe id="f" width="\(width)" height="\(height)" srcdoc="\(srcdoc)"></iframe><script>
        window.addEventListener('load', () => {
          const d = f.contentDocument, root = d.documentElement;
          const wraps = [...d.querySelectorAll('.table-wrap')].map(w => (w.firstElementChild ? w.firstElementChild.className.replace(/ /g, '.') : '?') + ':' + (w.scrollWidth - w.clientWidth));
          const head = d.querySelector('.intervals thead');
          document.body.setAttribute('data-viewport', String(root.clientWidth));
          document.body.setAttribute('data-page-overflow', String(root.scrollWidth - root.clientWidth));
          document.body.setAttribute('data-table-overflow', wraps.join(' '));
          document.body.setAttribute('data-header-shown', head && getComputedStyle(head).position !== 'absolute' ? 'yes' : 'no');
          \(scroll)
        });
        </script></body></html>
        """
    }

    /// The layout viewport's width, how far the page and each table (by its class) scroll sideways, px.
    struct Measured { var viewport: Int; var pageOverflow: Int; var tableOverflows: [String: Int]; var headerShown: Bool }

    /// Loads the harness in headless Chromium and reads back what its script measured; keeps
    /// screenshots (`RUNWALK_TEST_KEEP`) of the top of the page and of the intervals table.
    static func measure(_ session: RecordedSession, width: Int, height: Int, name: String) async throws -> Measured {
        let chromium = try #require(HTMLReportTests.chromium)
        let html = try await offPool { HTMLReport.render(session) }
        let folder = try Tool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func run(_ page: String, _ extra: [String]) async throws -> Tool.Output {
            let file = folder.appendingPathComponent("page-\(UUID().uuidString).html")
            try page.write(to: file, atomically: true, encoding: .utf8)
            return try await Tool.run(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                                                 "--force-device-scale-factor=1", "--no-first-run",
                                                 "--user-data-dir=\(folder.appendingPathComponent("profile").path)",
                                                 "--window-size=\(width),\(height)"] + extra + [file.absoluteString],
                                      timeoutSeconds: 90)
        }
        let dom = try await run(harness(html, width: width, height: height), ["--dump-dom"]).stdout
        func attribute(_ name: String) -> String? {
            guard let start = dom.range(of: "\(name)=\"") else { return nil }
            return String(dom[start.upperBound...].prefix { $0 != "\"" })
        }
        if ProcessInfo.processInfo.environment["RUNWALK_TEST_KEEP"] != nil {
            for (suffix, selector) in [("top", nil), ("intervals", ".intervals"), ("gaps", ".gap-table")] as [(String, String?)] {
                let png = folder.appendingPathComponent("\(suffix).png")
                _ = try await run(harness(html, width: width, height: height, scrollTo: selector), ["--screenshot=\(png.path)"])
                if let data = FileManager.default.contents(atPath: png.path) { Tool.keep(data, as: "\(name)-\(width)x\(height)-\(suffix).png") }
            }
        }
        let viewport = try #require(attribute("data-viewport").flatMap { Int($0) }, "no measurement in: \(dom.suffix(400))")
        return Measured(viewport: viewport, pageOverflow: Int(attribute("data-page-overflow") ?? "") ?? -1,
                        tableOverflows: Dictionary((attribute("data-table-overflow") ?? "").split(separator: " ").compactMap { entry in
                            let parts = entry.split(separator: ":")
                            return parts.count == 2 ? Int(parts[1]).map { (String(parts[0]), $0) } : nil
                        }, uniquingKeysWith: max),
                        headerShown: attribute("data-header-shown") == "yes")
    }

    @Test("at 360 × 720 every table fits without sideways scrolling (the wide intervals table stacks); at 1280 × 800 it is a table",
          .enabled(if: HTMLReportTests.chromium != nil, "needs chromium (scripts/test installs it)"),
          arguments: [(360, 720), (1280, 800)])
    func fitsInChromium(width: Int, height: Int) async throws {
        let measured = try await Self.measure(try await Self.widest(), width: width, height: height, name: "targets-hr")
        #expect(measured.viewport == width, "the report is laid out at \(measured.viewport) px, not \(width)")
        #expect(measured.pageOverflow == 0, "the page scrolls sideways by \(measured.pageOverflow) px")
        #expect(measured.tableOverflows.keys.contains("intervals.wide.stack"), "\(measured.tableOverflows)")
        #expect(!measured.tableOverflows.isEmpty && measured.tableOverflows.values.allSatisfy { $0 <= 0 },
                "a table scrolls sideways: \(measured.tableOverflows)")
        #expect(measured.headerShown == (width > 520), "the header row is shown on a wide screen only (stacked cards carry labels)")
    }
}
