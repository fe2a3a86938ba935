#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Distances and local planes on the WGS-84 earth.
public enum Geodesy {
    /// Mean earth radius (IUGG), metres.
    public static let earthRadius = 6_371_008.8

    /// Great-circle distance in metres (haversine).
    public static func distance(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
        let φ1 = latitude1 * .pi / 180, φ2 = latitude2 * .pi / 180
        let dφ = φ2 - φ1, dλ = (longitude2 - longitude1) * .pi / 180
        let a = sin(dφ / 2) * sin(dφ / 2) + cos(φ1) * cos(φ2) * sin(dλ / 2) * sin(dλ / 2)
        return 2 * earthRadius * asin(min(1, a.squareRoot()))
    }
}

/// A local east/north plane tangent at an origin; accurate to centimetres over tens of kilometres.
public struct LocalPlane: Sendable, Equatable {
    public let originLatitude: Double
    public let originLongitude: Double
    private let metresPerDegreeLatitude: Double
    private let metresPerDegreeLongitude: Double

    public init(originLatitude: Double, originLongitude: Double) {
        self.originLatitude = originLatitude
        self.originLongitude = originLongitude
        // WGS-84 meridional and prime-vertical radii at the origin.
        let a = 6_378_137.0, e2 = 0.00669437999014
        let φ = originLatitude * .pi / 180
        let s = sin(φ)
        let w = (1 - e2 * s * s).squareRoot()
        metresPerDegreeLatitude = a * (1 - e2) / (w * w * w) * .pi / 180
        metresPerDegreeLongitude = a / w * cos(φ) * .pi / 180
    }

    /// East and north metres of a position from the origin.
    public func project(latitude: Double, longitude: Double) -> (east: Double, north: Double) {
        var dλ = longitude - originLongitude
        if dλ > 180 { dλ -= 360 } else if dλ < -180 { dλ += 360 }
        return (dλ * metresPerDegreeLongitude, (latitude - originLatitude) * metresPerDegreeLatitude)
    }

    /// The position at east/north metres from the origin.
    public func unproject(east: Double, north: Double) -> (latitude: Double, longitude: Double) {
        (originLatitude + north / metresPerDegreeLatitude, originLongitude + east / max(1e-9, metresPerDegreeLongitude))
    }
}
