#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import RunWalkCore

@Suite("ConstantVelocityFilter")
struct KalmanFilterTests {
    @Test("a prediction moves the position by velocity × time and grows the uncertainty")
    func predict() {
        var filter = ConstantVelocityFilter(east: 10, north: -5, positionVariance: 4, velocityEast: 3, velocityNorth: -1, velocityVariance: 0.25)
        filter.predict(by: 2, accelerationSpectralDensity: 0.5)
        #expect(abs(filter.east - 16) < 1e-12)
        #expect(abs(filter.north - -7) < 1e-12)
        // P = F P Fᵀ + Q: 4 + 4·0.25 + 0.5·8/3 for the position, 0.25 + 0.5·2 for the velocity,
        // dt·0.25 + q·dt²/2 between them.
        #expect(abs(filter.covariance[0, 0] - (4 + 1 + 4.0 / 3)) < 1e-12)
        #expect(abs(filter.covariance[2, 2] - 1.25) < 1e-12)
        #expect(abs(filter.covariance[0, 2] - (2 * 0.25 + 0.5 * 4 / 2)) < 1e-12)
    }

    @Test("a position update moves the state by the Kalman gain P / (P + R)")
    func positionUpdate() {
        var filter = ConstantVelocityFilter(east: 0, north: 0, positionVariance: 9, velocityVariance: 1)
        filter.updatePosition(east: 10, north: -10, varianceEast: 1, varianceNorth: 9)
        #expect(abs(filter.east - 9) < 1e-12)
        #expect(abs(filter.north - -5) < 1e-12)
        #expect(abs(filter.covariance[0, 0] - 0.9) < 1e-12)
        #expect(abs(filter.covariance[1, 1] - 4.5) < 1e-12)
    }

    @Test("a far position has a large Mahalanobis distance, a near one a small one")
    func gate() {
        let filter = ConstantVelocityFilter(east: 0, north: 0, positionVariance: 1, velocityVariance: 1)
        #expect(filter.positionMahalanobisSquared(east: 50, north: 0, varianceEast: 4, varianceNorth: 4) == 500)
        #expect(filter.positionMahalanobisSquared(east: 1, north: 1, varianceEast: 4, varianceNorth: 4) < 1)
    }

    @Test("a course update turns the velocity without changing the speed")
    func course() {
        var filter = ConstantVelocityFilter(east: 0, north: 0, positionVariance: 1, velocityEast: 3, velocityNorth: 0, velocityVariance: 1)
        filter.updateCourse(80 * .pi / 180, variance: 0.0001)
        #expect(abs(filter.speed - 3) < 1e-12)
        let course = atan2(filter.velocityEast, filter.velocityNorth) * 180 / .pi
        #expect(course > 80 && course < 90, "course \(course)")
    }

    @Test("a speed update changes the speed along the current direction")
    func speed() {
        var filter = ConstantVelocityFilter(east: 0, north: 0, positionVariance: 1, velocityEast: 0, velocityNorth: 2, velocityVariance: 1)
        filter.updateSpeed(3, variance: 1)
        #expect(abs(filter.speed - 2.5) < 1e-12)
        #expect(abs(filter.velocityEast) < 1e-12)
    }

    @Test("the covariance stays symmetric and positive through many steps")
    func stability() {
        var filter = ConstantVelocityFilter(east: 0, north: 0, positionVariance: 25, velocityVariance: 25)
        for k in 0..<5000 {
            filter.predict(by: 0.1, accelerationSpectralDensity: 0.6)
            filter.updatePosition(east: Double(k) * 0.3, north: 0, varianceEast: 4, varianceNorth: 4)
            filter.updateSpeed(3, variance: 0.01)
        }
        let p = filter.covariance
        #expect(p == p.transposed)
        #expect((0..<4).allSatisfy { p[$0, $0] > 0 })
        #expect(abs(filter.speed - 3) < 0.01)
    }

    @Test("a matrix times its inverse is the identity")
    func inverse() throws {
        let m = Matrix4(SIMD4(4, 1, 2, 0), SIMD4(1, 5, 0, 1), SIMD4(2, 0, 6, 1), SIMD4(0, 1, 1, 3))
        let product = m * (try #require(m.inverse))
        for i in 0..<4 {
            for j in 0..<4 { #expect(abs(product[i, j] - (i == j ? 1 : 0)) < 1e-12) }
        }
        #expect(Matrix4.diagonal(SIMD4(1, 0, 1, 1)).inverse == nil)
    }
}
