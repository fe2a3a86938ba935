import Foundation
import RunWalkCore
import RunWalkReport
import Testing

/// The report's charts and route as standalone SVG for the app's session page (drawn by librsvg,
/// which knows neither CSS variables nor non-scaling strokes).
@Suite("SessionFigures")
struct SessionFiguresTests {
    @Test("pace, distance and route are well-formed SVG at the size asked, colours written out",
          arguments: ["track-loop", "trail-10hz", "demo-short"])
    func standalone(name: String) async throws {
        let session = try await SampleSession.named(name)
        for scheme in [SessionFigures.Scheme.light, .dark] {
            let pace = try #require(SessionFigures.paceChart(session, width: 336, height: 200, scheme: scheme))
            let distance = try #require(SessionFigures.distanceChart(session, width: 336, height: 170, scheme: scheme))
            let route = try #require(SessionFigures.route(session, width: 336, scheme: scheme))
            for (svg, file) in [(pace, "pace"), (distance, "distance"), (route, "route")] {
                Tool.keep(Data(svg.utf8), as: "\(name)-\(file)-\(scheme).svg")
                #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"336\" height=\""), "\(file)")
                #expect(svg.hasSuffix("</svg>"))
                #expect(!svg.contains("var(") && !svg.contains("vector-effect"), "\(file) leans on CSS librsvg lacks")
                if let xmllint = Tool.find("xmllint") {
                    let out = try await Tool.run(xmllint, ["--noout", "-"], stdin: Data(svg.utf8))
                    #expect(out.status == 0, "\(file): \(out.stderr)")
                }
            }
            // The pace chart: a band per phase, the time axis from 0:00, pace labels.
            #expect(pace.components(separatedBy: "<rect x=").count - 1 == session.summary.phases.count)
            #expect(pace.contains(">0:00</text>") && pace.contains("Pace (min/km"))
            // The route is the report's own: start, finish and a marker per kilometre.
            #expect(route.contains("start-marker") && route.contains("finish-marker"))
            #expect(route.components(separatedBy: "class=\"km-marker\"").count - 1 == Int(session.summary.distanceMetres / 1000))
        }
    }

    @Test("no track: no charts and no route")
    func noTrack() async throws {
        var session = try await SampleSession.named("demo-short")
        session.track = []
        #expect(SessionFigures.paceChart(session, width: 300, height: 200, scheme: .light) == nil)
        #expect(SessionFigures.distanceChart(session, width: 300, height: 200, scheme: .light) == nil)
        #expect(SessionFigures.route(session, width: 300, scheme: .light) == nil)
    }
}
