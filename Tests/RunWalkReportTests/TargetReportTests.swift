import Foundation
import RunWalkCore
import RunWalkIO
import RunWalkReport
import Testing

/// Issue 33: each interval's target and the time in, below and above it, in HTML and text.
@Suite("Target reports")
struct TargetReportTests {
    @Test("the intervals table and the text report show each band and its times; without bands, neither does")
    func intervals() async throws {
        let session = try await SampleSession.replay(path: SampleSession.trackPath("city-stopgo"),
                                                     workout: "10m warmup, 6x(3m run @ 5:45-6:15/km, 2m walk), 5m cooldown")
        let html = HTMLReport.render(session)
        #expect(html.contains("<th scope=\"col\">Target</th><th scope=\"col\">In</th><th scope=\"col\">Below</th><th scope=\"col\">Above</th>"))
        #expect(html.components(separatedBy: "<td data-label=\"Target\">5:45-6:15/km</td>").count - 1 == 6)
        let runs = session.summary.phases.filter { $0.target != nil }
        for run in runs {
            let times = [run.timeInTargetSeconds, run.timeBelowSeconds, run.timeAboveSeconds].compactMap { $0 }
            #expect(times.count == 3 && abs(times.reduce(0, +) - run.durationSeconds) < 1e-6)
        }
        let text = SummaryText.render(session.summary)
        #expect(text.contains("  #     phase           target       in    below    above"))
        #expect(text.components(separatedBy: "5:45-6:15/km").count - 1 == 6 + 1, "six rows and the workout line")
        let plain = try await SampleSession.named("city-stopgo")
        #expect(!HTMLReport.render(plain).contains(">Target</th>"))
        #expect(!SummaryText.render(plain.summary).contains("target"))
    }
}
