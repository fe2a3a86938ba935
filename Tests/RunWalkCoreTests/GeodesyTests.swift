import Testing
@testable import RunWalkCore

@Suite("Geodesy")
struct GeodesyTests {
    @Test("WGS-84 lengths of a degree", arguments: [
        // (lat1, lon1, lat2, lon2, metres): a degree of latitude at 45° is
        // 111 132.954 − 559.822 cos 2φ + 1.175 cos 4φ; of longitude, N cos φ · π/180.
        (44.5, 8.0, 45.5, 8.0, 111_131.78),
        (0.0, 0.0, 0.0, 1.0, 111_319.49),
        (60.0, 10.0, 60.0, 11.0, 55_800.00),
    ])
    func degree(lat1: Double, lon1: Double, lat2: Double, lon2: Double, metres: Double) {
        let d = Geodesy.distance(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2)
        #expect(abs(d - metres) < 0.5, "\(d) m")
    }

    @Test("east-west at 47° N: the sphere reads about 0.29 % short, the ellipsoid does not")
    func sphereVersusEllipsoid() {
        let plane = LocalPlane(originLatitude: 47.37, originLongitude: 8.54)
        let east = plane.unproject(east: 1000, north: 0)
        let ellipsoid = Geodesy.distance(latitude1: 47.37, longitude1: 8.54, latitude2: east.latitude, longitude2: east.longitude)
        let sphere = Geodesy.greatCircleDistance(latitude1: 47.37, longitude1: 8.54, latitude2: east.latitude, longitude2: east.longitude)
        #expect(abs(ellipsoid - 1000) < 0.01)
        #expect(abs((sphere - 1000) / 1000 - -0.00293) < 0.0001, "sphere \(sphere) m")
    }

    @Test("a local plane round-trips positions and crosses the antimeridian")
    func plane() {
        let plane = LocalPlane(originLatitude: -33.9, originLongitude: 179.999)
        let p = plane.project(latitude: -33.901, longitude: -179.999)
        #expect(abs(p.east - 185.1) < 1)
        let back = plane.unproject(east: 120, north: -80)
        let again = plane.project(latitude: back.latitude, longitude: back.longitude)
        #expect(abs(again.east - 120) < 1e-6 && abs(again.north - -80) < 1e-6)
    }
}
