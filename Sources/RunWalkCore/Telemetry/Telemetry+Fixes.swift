/// What the telemetry reads off a fix before filtering it, and the progress between two estimates.
extension Telemetry {
    /// Whether a later position is reachable from the candidate at a runner's speed, within the noise.
    func agree(_ c: (time: Double, east: Double, north: Double, variance: (Double, Double), fix: Fix, doppler: Double?),
               east: Double, north: Double, time: Double, variance: (Double, Double)) -> Bool {
        let step = ((east - c.east) * (east - c.east) + (north - c.north) * (north - c.north)).squareRoot()
        let sigma = (max(c.variance.0, c.variance.1) + max(variance.0, variance.1)).squareRoot()
        return step <= settings.maximumSpeed * (time - c.time) + Self.startAgreementSigmas * sigma
    }

    /// East and north variance of the fix's position, metres².
    func positionVariance(_ fix: Fix) -> (Double, Double) {
        if let e = fix.longitudeErrorMetres, let n = fix.latitudeErrorMetres, e > 0, n > 0 {
            return (e * e, n * n)
        }
        let sigma = fix.hdop.map { $0 * settings.userRangeErrorMetres } ?? settings.defaultPositionSigmaMetres
        return (sigma * sigma, sigma * sigma)
    }

    /// How far the filtered position moved along the direction of travel (the mean of the two
    /// velocities' directions) from one estimate to the next, metres; negative when it went back.
    ///
    /// Without Doppler the filtered speed lags a change of speed by seconds: a run→walk change
    /// puts the integrated speed 5–6 m ahead of the runner until the next change takes as much
    /// back, while every fix pulls the filtered position to where the runner is. Summed over the
    /// fixes this is the position's own progress, whose error stays that of one position instead
    /// of following the last change of speed. Across the direction of travel nothing counts: the
    /// jitter that lengthens a noisy velocity's norm (at walking pace a few percent) does not.
    static func progress(from a: ConstantVelocityFilter, to b: ConstantVelocityFilter) -> Double {
        let he = a.velocityEast + b.velocityEast, hn = a.velocityNorth + b.velocityNorth
        let norm = (he * he + hn * hn).squareRoot()
        guard norm > 1e-9 else { return 0 }
        return ((b.east - a.east) * he + (b.north - a.north) * hn) / norm
    }
}
