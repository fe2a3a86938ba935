#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A 4×4 matrix of doubles stored by rows (the filter's covariance and transition).
public struct Matrix4: Sendable, Equatable, SquareMatrix {
    static let order = 4
    static var identity: Matrix4 { diagonal(SIMD4(repeating: 1)) }
    public var rows: (SIMD4<Double>, SIMD4<Double>, SIMD4<Double>, SIMD4<Double>)

    public init(_ r0: SIMD4<Double>, _ r1: SIMD4<Double>, _ r2: SIMD4<Double>, _ r3: SIMD4<Double>) {
        rows = (r0, r1, r2, r3)
    }

    /// A diagonal matrix.
    public static func diagonal(_ d: SIMD4<Double>) -> Matrix4 {
        Matrix4(SIMD4(d[0], 0, 0, 0), SIMD4(0, d[1], 0, 0), SIMD4(0, 0, d[2], 0), SIMD4(0, 0, 0, d[3]))
    }

    /// The constant-velocity transition over `dt` seconds for the state (east, north, vEast, vNorth).
    public static func constantVelocity(_ dt: Double) -> Matrix4 {
        Matrix4(SIMD4(1, 0, dt, 0), SIMD4(0, 1, 0, dt), SIMD4(0, 0, 1, 0), SIMD4(0, 0, 0, 1))
    }

    public static func == (a: Matrix4, b: Matrix4) -> Bool {
        a.rows.0 == b.rows.0 && a.rows.1 == b.rows.1 && a.rows.2 == b.rows.2 && a.rows.3 == b.rows.3
    }

    public subscript(row: Int, column: Int) -> Double {
        get { self[row][column] }
        set { self[row][column] = newValue }
    }

    public subscript(row: Int) -> SIMD4<Double> {
        get {
            switch row {
            case 0: return rows.0
            case 1: return rows.1
            case 2: return rows.2
            default: return rows.3
            }
        }
        set {
            switch row {
            case 0: rows.0 = newValue
            case 1: rows.1 = newValue
            case 2: rows.2 = newValue
            default: rows.3 = newValue
            }
        }
    }

    public var transposed: Matrix4 {
        Matrix4(column(0), column(1), column(2), column(3))
    }

    public func column(_ j: Int) -> SIMD4<Double> {
        SIMD4(rows.0[j], rows.1[j], rows.2[j], rows.3[j])
    }

    public static func * (a: Matrix4, v: SIMD4<Double>) -> SIMD4<Double> {
        SIMD4((a.rows.0 * v).sum(), (a.rows.1 * v).sum(), (a.rows.2 * v).sum(), (a.rows.3 * v).sum())
    }

    public static func * (a: Matrix4, b: Matrix4) -> Matrix4 {
        let bt = b.transposed
        func row(_ r: SIMD4<Double>) -> SIMD4<Double> { bt * r }
        return Matrix4(row(a.rows.0), row(a.rows.1), row(a.rows.2), row(a.rows.3))
    }

    public static func + (a: Matrix4, b: Matrix4) -> Matrix4 {
        Matrix4(a.rows.0 + b.rows.0, a.rows.1 + b.rows.1, a.rows.2 + b.rows.2, a.rows.3 + b.rows.3)
    }

    public static func - (a: Matrix4, b: Matrix4) -> Matrix4 {
        Matrix4(a.rows.0 - b.rows.0, a.rows.1 - b.rows.1, a.rows.2 - b.rows.2, a.rows.3 - b.rows.3)
    }

    /// The outer product u·vᵀ.
    public static func outer(_ u: SIMD4<Double>, _ v: SIMD4<Double>) -> Matrix4 {
        Matrix4(u[0] * v, u[1] * v, u[2] * v, u[3] * v)
    }

    /// (A + Aᵀ) / 2, to keep a covariance symmetric against rounding.
    public var symmetrised: Matrix4 {
        let t = transposed
        return Matrix4((rows.0 + t.rows.0) / 2, (rows.1 + t.rows.1) / 2, (rows.2 + t.rows.2) / 2, (rows.3 + t.rows.3) / 2)
    }

    /// The inverse, or nil when singular (Gauss–Jordan with partial pivoting).
    public var inverse: Matrix4? { gaussJordanInverse }
}

/// A constant-velocity Kalman filter on a local east/north plane.
///
/// State: east and north position (metres) and velocity (metres per second). Process
/// noise is white acceleration of spectral density `q` (m²/s³) per axis, so the same
/// settings hold at 1 Hz and at 10 Hz. Measurements are applied as scalar updates.
public struct ConstantVelocityFilter: Sendable, Equatable {
    /// (east, north, vEast, vNorth).
    public private(set) var state: SIMD4<Double>
    public private(set) var covariance: Matrix4

    public init(east: Double, north: Double, positionVariance: Double,
                velocityEast: Double = 0, velocityNorth: Double = 0, velocityVariance: Double) {
        state = SIMD4(east, north, velocityEast, velocityNorth)
        covariance = .diagonal(SIMD4(positionVariance, positionVariance, velocityVariance, velocityVariance))
    }

    /// A filter at a stored estimate (the smoother's history rebuilds its steps with it).
    init(state: SIMD4<Double>, covariance: Matrix4) {
        self.state = state
        self.covariance = covariance
    }

    public var east: Double { state[0] }
    public var north: Double { state[1] }
    public var velocityEast: Double { state[2] }
    public var velocityNorth: Double { state[3] }
    /// Speed over ground from the state, metres per second.
    public var speed: Double { (state[2] * state[2] + state[3] * state[3]).squareRoot() }

    /// The process noise over `dt` seconds for acceleration spectral density `q`.
    public static func processNoise(dt: Double, q: Double) -> Matrix4 {
        let a = q * dt * dt * dt / 3, b = q * dt * dt / 2, c = q * dt
        return Matrix4(SIMD4(a, 0, b, 0), SIMD4(0, a, 0, b), SIMD4(b, 0, c, 0), SIMD4(0, b, 0, c))
    }

    /// Moves the state on by `dt` seconds.
    public mutating func predict(by dt: Double, accelerationSpectralDensity q: Double) {
        guard dt > 0 else { return }
        let f = Matrix4.constantVelocity(dt)
        state = f * state
        covariance = (f * covariance * f.transposed + Self.processNoise(dt: dt, q: q)).symmetrised
    }

    /// The squared Mahalanobis distance of a position measurement from the prediction.
    public func positionMahalanobisSquared(east: Double, north: Double, varianceEast: Double, varianceNorth: Double) -> Double {
        let ye = east - state[0], yn = north - state[1]
        let s00 = covariance[0, 0] + varianceEast, s11 = covariance[1, 1] + varianceNorth
        let s01 = covariance[0, 1]
        let det = s00 * s11 - s01 * s01
        guard det > 0 else { return .infinity }
        return (s11 * ye * ye - 2 * s01 * ye * yn + s00 * yn * yn) / det
    }

    /// Applies a position measurement with independent east and north variances.
    public mutating func updatePosition(east: Double, north: Double, varianceEast: Double, varianceNorth: Double) {
        update(h: SIMD4(1, 0, 0, 0), innovation: east - state[0], variance: varianceEast)
        update(h: SIMD4(0, 1, 0, 0), innovation: north - state[1], variance: varianceNorth)
    }

    /// Applies a velocity measurement (both axes, same variance), e.g. zero while standing.
    public mutating func updateVelocity(east: Double, north: Double, variance: Double) {
        update(h: SIMD4(0, 0, 1, 0), innovation: east - state[2], variance: variance)
        update(h: SIMD4(0, 0, 0, 1), innovation: north - state[3], variance: variance)
    }

    /// Applies a Doppler speed (magnitude) measurement, linearised about the current velocity.
    public mutating func updateSpeed(_ measured: Double, variance: Double) {
        let current = speed
        guard current > 1e-3 else { return }
        let h = SIMD4(0, 0, state[2] / current, state[3] / current)
        update(h: h, innovation: measured - current, variance: variance)
    }

    /// Applies a course-over-ground measurement (radians clockwise from north), linearised.
    public mutating func updateCourse(_ radians: Double, variance: Double) {
        let ve = state[2], vn = state[3]
        let s2 = ve * ve + vn * vn
        guard s2 > 1e-6 else { return }
        var innovation = radians - atan2(ve, vn)
        innovation -= 2 * .pi * (innovation / (2 * .pi)).rounded()
        update(h: SIMD4(0, 0, vn / s2, -ve / s2), innovation: innovation, variance: variance)
        // A course says nothing about speed, but the linearised step moves along the tangent
        // and so lengthens the velocity a little every time (a steady bias at 10 Hz): rotate only.
        let after = speed
        if after > 1e-9 {
            let scale = s2.squareRoot() / after
            state[2] *= scale
            state[3] *= scale
        }
    }

    /// Moves the position by a step, keeping the velocity and the covariance.
    public mutating func shiftPosition(east: Double, north: Double) {
        state[0] += east
        state[1] += north
    }

    /// Moves the position to a measurement, keeping the velocity (recovery after a lost lock).
    public mutating func resetPosition(east: Double, north: Double, variance: Double) {
        state[0] = east
        state[1] = north
        for i in 0..<4 where i > 1 {
            covariance[0, i] = 0; covariance[i, 0] = 0
            covariance[1, i] = 0; covariance[i, 1] = 0
        }
        covariance[0, 1] = 0; covariance[1, 0] = 0
        covariance[0, 0] = variance
        covariance[1, 1] = variance
    }

    /// A linear scalar update z = h·x + noise, given the innovation z − h·x.
    public mutating func update(h: SIMD4<Double>, innovation: Double, variance: Double) {
        let ph = covariance * h
        let s = (h * ph).sum() + variance
        guard s > 0, s.isFinite, innovation.isFinite else { return }
        let gain = ph / s
        state += gain * innovation
        covariance = (covariance - Matrix4.outer(gain, ph)).symmetrised
    }
}
