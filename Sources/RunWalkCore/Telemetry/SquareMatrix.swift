/// A small square matrix of doubles stored by SIMD rows, for the Kalman filter and smoothers.
protocol SquareMatrix {
    associatedtype Row: SIMD where Row.Scalar == Double
    /// Rows and columns in use (a row's lanes beyond it stay zero).
    static var order: Int { get }
    static var identity: Self { get }
    subscript(row: Int) -> Row { get set }
}

extension SquareMatrix {
    /// The inverse, or nil when singular (Gauss–Jordan with partial pivoting).
    var gaussJordanInverse: Self? {
        var a = self
        var inv = Self.identity
        let n = Self.order
        for c in 0..<n {
            var pivot = c
            for r in (c + 1)..<n where abs(a[r][c]) > abs(a[pivot][c]) { pivot = r }
            guard abs(a[pivot][c]) > 1e-300 else { return nil }
            if pivot != c {
                let t = a[c]; a[c] = a[pivot]; a[pivot] = t
                let u = inv[c]; inv[c] = inv[pivot]; inv[pivot] = u
            }
            let scale = 1 / a[c][c]
            a[c] *= scale
            inv[c] *= scale
            for r in 0..<n where r != c {
                let f = a[r][c]
                if f != 0 {
                    a[r] -= f * a[c]
                    inv[r] -= f * inv[c]
                }
            }
        }
        return inv
    }
}
