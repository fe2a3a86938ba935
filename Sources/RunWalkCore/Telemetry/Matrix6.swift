#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A 6-vector in the first six lanes of a `SIMD8` (the last two stay zero).
typealias Vector6 = SIMD8<Double>

/// A 6×6 matrix of doubles stored by rows, each row a `SIMD8` whose last two lanes are zero
/// (the offline smoother's covariance and transition).
struct Matrix6: Sendable, Equatable, SquareMatrix {
    static let order = 6
    private var r0, r1, r2, r3, r4, r5: Vector6

    init(rows: [Vector6]) {
        precondition(rows.count == 6, "Matrix6 needs six rows")
        (r0, r1, r2, r3, r4, r5) = (rows[0], rows[1], rows[2], rows[3], rows[4], rows[5])
    }

    private init(_ r0: Vector6, _ r1: Vector6, _ r2: Vector6, _ r3: Vector6, _ r4: Vector6, _ r5: Vector6) {
        (self.r0, self.r1, self.r2, self.r3, self.r4, self.r5) = (r0, r1, r2, r3, r4, r5)
    }

    static let zero = Matrix6(.zero, .zero, .zero, .zero, .zero, .zero)

    /// The identity matrix.
    static var identity: Matrix6 { diagonal(Vector6(1, 1, 1, 1, 1, 1, 0, 0)) }

    /// A diagonal matrix.
    static func diagonal(_ d: Vector6) -> Matrix6 {
        var m = Matrix6.zero
        for i in 0..<6 { m[i, i] = d[i] }
        return m
    }

    subscript(row: Int) -> Vector6 {
        get {
            switch row {
            case 0: return r0
            case 1: return r1
            case 2: return r2
            case 3: return r3
            case 4: return r4
            default: return r5
            }
        }
        set {
            switch row {
            case 0: r0 = newValue
            case 1: r1 = newValue
            case 2: r2 = newValue
            case 3: r3 = newValue
            case 4: r4 = newValue
            default: r5 = newValue
            }
        }
    }

    subscript(row: Int, column: Int) -> Double {
        get { self[row][column] }
        set { self[row][column] = newValue }
    }

    var transposed: Matrix6 {
        var t = Matrix6.zero
        for i in 0..<6 {
            let row = self[i]
            for j in 0..<6 { t[j, i] = row[j] }
        }
        return t
    }

    /// (A + Aᵀ) / 2, to keep a covariance symmetric against rounding.
    var symmetrised: Matrix6 {
        let t = transposed
        return Matrix6((r0 + t.r0) / 2, (r1 + t.r1) / 2, (r2 + t.r2) / 2, (r3 + t.r3) / 2, (r4 + t.r4) / 2, (r5 + t.r5) / 2)
    }

    static func * (a: Matrix6, v: Vector6) -> Vector6 {
        Vector6((a.r0 * v).sum(), (a.r1 * v).sum(), (a.r2 * v).sum(), (a.r3 * v).sum(), (a.r4 * v).sum(), (a.r5 * v).sum(), 0, 0)
    }

    static func * (a: Matrix6, b: Matrix6) -> Matrix6 {
        func row(_ r: Vector6) -> Vector6 {
            var sum: Vector6 = r[0] * b.r0
            sum += r[1] * b.r1
            sum += r[2] * b.r2
            sum += r[3] * b.r3
            sum += r[4] * b.r4
            sum += r[5] * b.r5
            return sum
        }
        return Matrix6(row(a.r0), row(a.r1), row(a.r2), row(a.r3), row(a.r4), row(a.r5))
    }

    static func + (a: Matrix6, b: Matrix6) -> Matrix6 {
        Matrix6(a.r0 + b.r0, a.r1 + b.r1, a.r2 + b.r2, a.r3 + b.r3, a.r4 + b.r4, a.r5 + b.r5)
    }

    static func - (a: Matrix6, b: Matrix6) -> Matrix6 {
        Matrix6(a.r0 - b.r0, a.r1 - b.r1, a.r2 - b.r2, a.r3 - b.r3, a.r4 - b.r4, a.r5 - b.r5)
    }

    /// The outer product u·vᵀ.
    static func outer(_ u: Vector6, _ v: Vector6) -> Matrix6 {
        Matrix6(u[0] * v, u[1] * v, u[2] * v, u[3] * v, u[4] * v, u[5] * v)
    }

    /// The inverse, or nil when singular (Gauss–Jordan with partial pivoting).
    var inverse: Matrix6? { gaussJordanInverse }
}
