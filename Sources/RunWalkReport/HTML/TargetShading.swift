import RunWalkCore

/// The workout's target bands drawn on the charts (issue 33): over each phase that had a pace
/// band, the band's pace range is shaded on the pace chart, and a heart-rate band's range on the
/// heart-rate chart, so the line can be read against where it was meant to be.
enum TargetShading {
    /// The pace bands of `summary`'s phases, in the chart's pace unit (seconds per km or mile).
    static func paceAreas(_ summary: Summary, style: UnitStyle) -> [TimeChart.TargetArea] {
        summary.phases.compactMap { phase in
            guard let band = phase.target, let fastest = band.paceMinSecondsPerKm, let slowest = band.paceMaxSecondsPerKm,
                  fastest.isFinite, slowest.isFinite, fastest > 0, slowest > 0 else { return nil }
            return TimeChart.TargetArea(startSeconds: phase.startSeconds, endSeconds: phase.startSeconds + phase.durationSeconds,
                                        low: style.paceValue(min(fastest, slowest)), high: style.paceValue(max(fastest, slowest)),
                                        label: band.text)
        }
    }

    /// The heart-rate bands of `summary`'s phases, in bpm.
    static func heartRateAreas(_ summary: Summary) -> [TimeChart.TargetArea] {
        summary.phases.compactMap { phase in
            guard let band = phase.target, let low = band.heartRateMin, let high = band.heartRateMax else { return nil }
            return TimeChart.TargetArea(startSeconds: phase.startSeconds, endSeconds: phase.startSeconds + phase.durationSeconds,
                                        low: Double(min(low, high)), high: Double(max(low, high)), label: band.text)
        }
    }

    /// `range` grown to hold every area, so a band the runner never came near is still drawn
    /// in full rather than pinned to the chart's edge.
    static func covering(_ range: ClosedRange<Double>, _ areas: [TimeChart.TargetArea], padding: Double) -> ClosedRange<Double> {
        guard let low = areas.map(\.low).min(), let high = areas.map(\.high).max() else { return range }
        return min(range.lowerBound, low - padding)...max(range.upperBound, high + padding)
    }

    /// The legend entry for the shading, when some phase has a band.
    static func legendItem(_ summary: Summary) -> String {
        guard summary.phases.contains(where: { $0.target != nil }) else { return "" }
        return "<span class=\"legend-item\"><i class=\"chip key-target\"></i>target band</span>"
    }
}
