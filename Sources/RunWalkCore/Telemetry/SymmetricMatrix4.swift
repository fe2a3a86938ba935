/// A symmetric 4×4 matrix stored as its upper triangle (10 doubles instead of 16): how the
/// smoother's history keeps the filter's covariance, which is exactly symmetric.
struct SymmetricMatrix4: Sendable, Equatable {
    private var upper: (Double, Double, Double, Double, Double, Double, Double, Double, Double, Double)

    /// The upper triangle of `m` (its lower triangle is taken to mirror it).
    init(_ m: Matrix4) {
        upper = (m[0, 0], m[0, 1], m[0, 2], m[0, 3], m[1, 1], m[1, 2], m[1, 3], m[2, 2], m[2, 3], m[3, 3])
    }

    /// The element at row 0, column 0 (the east position variance of a covariance).
    var topLeft: Double { upper.0 }

    /// The full matrix.
    var matrix: Matrix4 {
        let u = upper
        return Matrix4(SIMD4(u.0, u.1, u.2, u.3), SIMD4(u.1, u.4, u.5, u.6), SIMD4(u.2, u.5, u.7, u.8), SIMD4(u.3, u.6, u.8, u.9))
    }

    static func == (a: SymmetricMatrix4, b: SymmetricMatrix4) -> Bool { a.matrix == b.matrix }
}
