#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import RunWalkCore

/// A deterministic synthetic receiver for telemetry tests: a runner on a circle (or standing)
/// at a given speed, a Gauss–Markov position error plus white jitter, Doppler speed and course.
struct TestTrack {
    var rateHz = 1
    var seconds = 600.0
    /// Speed as a function of time, metres per second.
    var speed: (Double) -> Double = { _ in 3 }
    /// Radius of the circular path, metres (a large radius is nearly straight).
    var radiusMetres = 200.0
    var correlatedSigmaMetres = 1.5
    var correlationSeconds = 60.0
    var jitterMetres = 0.3
    var hdop = 0.9
    var dopplerSigma = 0.1
    var doppler = true
    /// Extra offsets (east, north) in metres added to the fixes at these whole seconds.
    var outliers: [Int: (Double, Double)] = [:]
    /// Half-open [start, end) seconds without fixes.
    var dropout: (Double, Double)?
    var seed: UInt64 = 1

    static let origin = (latitude: 47.37, longitude: 8.54)

    /// The true distance travelled up to `time`, metres (trapezoid at 20 Hz).
    func trueDistance(to time: Double) -> Double {
        var total = 0.0, t = 0.0
        let h = 0.05
        while t + h <= time + 1e-9 {
            total += (speed(t) + speed(t + h)) / 2 * h
            t += h
        }
        return total
    }

    /// The fixes, one per epoch; the same noise sequence whatever the outliers and dropouts.
    func fixes() -> [Fix] {
        var random = SeededGenerator(seed: seed)
        let plane = LocalPlane(originLatitude: Self.origin.latitude, originLongitude: Self.origin.longitude)
        let dt = 1 / Double(rateHz)
        let a = exp(-dt / correlationSeconds)
        let q = correlatedSigmaMetres * (1 - a * a).squareRoot()
        var errorEast = random.gaussian() * correlatedSigmaMetres, errorNorth = random.gaussian() * correlatedSigmaMetres
        var fixes: [Fix] = []
        var distance = 0.0
        let epochs = Int((seconds * Double(rateHz)).rounded())
        for j in 0...epochs {
            let t = Double(j) * dt
            if j > 0 { distance += (speed(t - dt) + speed(t)) / 2 * dt }
            errorEast = a * errorEast + q * random.gaussian()
            errorNorth = a * errorNorth + q * random.gaussian()
            let jitterEast = random.gaussian() * jitterMetres, jitterNorth = random.gaussian() * jitterMetres
            let dopplerNoise = random.gaussian() * dopplerSigma, courseNoise = random.gaussian()
            if let d = dropout, t >= d.0, t < d.1 { continue }
            let angle = distance / radiusMetres
            var east = radiusMetres * sin(angle) + errorEast + jitterEast
            var north = radiusMetres * (1 - cos(angle)) + errorNorth + jitterNorth
            if j % rateHz == 0, let o = outliers[j / rateHz] {
                east += o.0
                north += o.1
            }
            let position = plane.unproject(east: east, north: north)
            var fix = Fix(time: UTCTime(milliseconds: 1_776_000_000_000 + Int64(j) * 1000 / Int64(rateHz)))
            fix.latitude = position.latitude
            fix.longitude = position.longitude
            fix.mode = .threeD
            fix.quality = 1
            fix.hdop = hdop
            fix.satellitesUsed = 10
            let v = speed(t)
            if doppler {
                if v < 0.05 {
                    fix.speedMetresPerSecond = min(abs(dopplerNoise), 0.3)
                } else {
                    fix.speedMetresPerSecond = max(0, v + dopplerNoise)
                    // Moving along (cos θ, sin θ) east/north: course = 90° − θ, clockwise from north.
                    let course = (90 - angle * 180 / .pi + courseNoise * (1.5 + 8 / v)).truncatingRemainder(dividingBy: 360)
                    fix.courseDegrees = course < 0 ? course + 360 : course
                }
            }
            fixes.append(fix)
        }
        return fixes
    }

    /// Runs fixes through a fresh telemetry; returns the final distance.
    static func distance(of fixes: [Fix], settings: TelemetrySettings = TelemetrySettings()) -> Double {
        var telemetry = Telemetry(settings: settings)
        var last = 0.0
        for fix in fixes { last = telemetry.ingest(fix).distanceMetres }
        return last
    }
}

