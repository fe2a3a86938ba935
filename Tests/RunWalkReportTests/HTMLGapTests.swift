import Foundation
import Testing
import RunWalkCore
import RunWalkReport

/// The report names each GPS gap (a table row: when, how long, why, the distance across it) and
/// labels it on the charts and the map, checked in the DOM headless Chromium lays out.
@Suite("HTML report: GPS gaps")
struct HTMLGapTests {
    /// Measures the page's gap marks in Chromium: a test-only script appends what it saw as JSON.
    static let probe = """
        <script>
        const plotOf = e => e.closest('.plot').getBoundingClientRect();
        const out = {
          rows: [...document.querySelectorAll('tr.gap-row')].map(r => [...r.cells].map(c => c.textContent)),
          labels: [...document.querySelectorAll('.chart .gap-label')].map(l => {
            const b = l.getBoundingClientRect(), p = plotOf(l);
            return {text: l.textContent, inside: b.left >= p.left - 1 && b.left < p.right && b.top >= p.top - 1 && b.bottom <= p.bottom + 1 && b.width > 10};
          }),
          rects: [...document.querySelectorAll('.plot-svg rect.gap')].map(r => r.getBoundingClientRect().width),
          rectColour: (() => { const r = document.querySelector('.plot-svg rect.gap'); return r ? getComputedStyle(r).fill : ''; })(),
          map: [...document.querySelectorAll('svg.route .gap-line')].map(g => ({text: g.querySelector('text').textContent,
                                                                               length: g.querySelector('line').getTotalLength()})),
        };
        const pre = document.createElement('pre'); pre.id = 'probe'; pre.textContent = JSON.stringify(out); document.body.appendChild(pre);
        </script>
        """

    struct Probe: Decodable {
        struct Label: Decodable { var text: String; var inside: Bool }
        struct MapGap: Decodable { var text: String; var length: Double }
        var rows: [[String]]
        var labels: [Label]
        var rects: [Double]
        var rectColour: String
        var map: [MapGap]
    }

    static func probe(_ html: String) async throws -> Probe {
        let folder = try Tool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("report.html")
        try html.replacingOccurrences(of: "</body>", with: Self.probe + "</body>").write(to: page, atomically: true, encoding: .utf8)
        let result = try await Tool.run(try #require(HTMLReportTests.chromium), [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--window-size=1000,2000",
            "--user-data-dir=\(folder.appendingPathComponent("profile").path)", "--dump-dom", page.absoluteString,
        ], timeoutSeconds: 90)
        let dom = result.stdout
        guard let open = dom.range(of: "<pre id=\"probe\">"), let close = dom.range(of: "</pre>", range: open.upperBound..<dom.endIndex) else {
            throw ProbeMissing(stderr: String(result.stderr.suffix(600)))
        }
        let json = dom[open.upperBound..<close.lowerBound]
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        return try JSONDecoder().decode(Probe.self, from: Data(json.utf8))
    }

    struct ProbeMissing: Error { var stderr: String }

    @Test("the city track's four dropouts: four rows, labelled on the pace and speed charts and drawn on the map",
          .enabled(if: HTMLReportTests.chromium != nil, "needs chromium (scripts/test installs it)"))
    func cityGaps() async throws {
        let session = try await SampleSession.named("city-stopgo")
        let gaps = try #require(session.summary.gpsGaps)
        try #require(gaps.count == 4)
        let probe = try await Self.probe(HTMLReport.render(session))
        #expect(probe.rows.count == 4, "\(probe.rows)")
        let first = try #require(probe.rows.first)
        #expect(Array(first.prefix(4)) == ["8:35", "8:53", "0:18", "signal lost"], "\(first)")
        #expect(first.last?.hasSuffix("m counted, the straight line between its ends") == true, "\(first)")
        // Pace and speed charts (the city track has altitude too: elevation as well).
        #expect(probe.labels.count >= 8 && probe.labels.count % 4 == 0, "\(probe.labels)")
        #expect(probe.labels.allSatisfy { $0.inside }, "every label inside its plot: \(probe.labels)")
        #expect(probe.labels.prefix(4).map(\.text) == ["GPS gap 0:18", "GPS gap 0:15", "GPS gap 0:13", "GPS gap 0:09"])
        #expect(probe.rects.count == probe.labels.count && probe.rects.allSatisfy { $0 >= 2 }, "\(probe.rects)")
        #expect(probe.rectColour.hasPrefix("rgba(214, 40, 40"), "\(probe.rectColour)")
        #expect(probe.map.map(\.text) == ["GPS gap 0:18", "GPS gap 0:15", "GPS gap 0:13", "GPS gap 0:09"], "\(probe.map)")
        #expect(probe.map.allSatisfy { $0.length > 0 }, "a dashed line between the ends: \(probe.map)")
    }

    @Test("a track without gaps has no gap marks", .enabled(if: HTMLReportTests.chromium != nil, "needs chromium (scripts/test installs it)"))
    func noGaps() async throws {
        let probe = try await Self.probe(HTMLReport.render(try await SampleSession.named("demo-short")))
        #expect(probe.rows.isEmpty && probe.labels.isEmpty && probe.rects.isEmpty && probe.map.isEmpty)
    }
}
