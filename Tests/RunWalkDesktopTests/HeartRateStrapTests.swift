import Foundation
import RunWalkCore
import RunWalkDesktop
import RunWalkTestSupport
import Testing

/// The BlueZ client against a stand-in that owns org.bluez on a private bus (bluez_standin.py;
/// bluetoothd needs a controller this machine lacks): discovery, connect, notifications at 1 Hz,
/// a drop and a return (issue 32).
@Suite("Heart-rate strap through BlueZ", .serialized)
struct HeartRateStrapTests {
    static let standIn = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("bluez_standin.py").path
    static let python = "/usr/bin/python3"
    static var available: Bool {
        PrivateBus.isInstalled && FileManager.default.isExecutableFile(atPath: python)
            && (try? ChildProcess(python, ["-c", "import dbus, gi"]).wait(seconds: 20)) == 0
    }

    /// Events with the monotonic time they came.
    final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [(at: Double, event: HeartRateStrapEvent)] = []
        func add(_ event: HeartRateStrapEvent) {
            lock.withLock { list.append((ProcessInfo.processInfo.systemUptime, event)) }
        }
        var all: [(at: Double, event: HeartRateStrapEvent)] { lock.withLock { list } }
        var measurements: [(at: Double, measurement: HeartRateMeasurement)] {
            all.compactMap { if case .measurement(let m) = $0.event { ($0.at, m) } else { nil } }
        }
    }

    func withStandIn(_ arguments: [String], _ body: (PrivateBus) async throws -> Void) async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let standIn = try bus.start(Self.python, [Self.standIn] + arguments, system: true)
        try #require(try bus.waitForName("org.bluez"), "stand-in: \(standIn.stderr)")
        try await body(bus)
    }

    @Test("auto: discovery, connect, battery, notifications at 1 Hz; a drop is said once and the strap comes back",
          .enabled(if: available, "needs dbus-daemon, gdbus and /usr/bin/python3 with python3-dbus and python3-gi"),
          .timeLimit(.minutes(2)))
    func followsTheStrap() async throws {
        try await withStandIn(["--drop-after", "3.5", "--drop-for", "2"]) { bus in
            let events = Events()
            let strap = try HeartRateStrap.start(.auto, retry: HeartRateRetry(initialSeconds: 0.5, maximumSeconds: 1),
                                                 busAddress: bus.address) { events.add($0) }.get()
            defer { strap.stop() }
            // Connected twice (before and after the drop) with measurements after each.
            let back = await eventually(seconds: 40) {
                events.all.filter { if case .connected = $0.event { true } else { false } }.count >= 2
                    && (events.measurements.last?.at ?? 0) > (events.all.last { if case .connected = $0.event { true } else { false } }?.at ?? .infinity)
            }
            let all = events.all
            #expect(back, "\(all.map(\.event))")
            let connected = all.compactMap { if case .connected(let info) = $0.event { info } else { nil } }
            #expect(connected.first == HeartRateStrapInfo(address: "C0:FF:EE:00:12:34", name: "Polar H10 A1B2C3D4", batteryPercent: 87, rssi: -61))
            let lost = all.filter { if case .lost = $0.event { true } else { false } }
            #expect(lost.count == 1, "a drop is said once, however many retries fail: \(lost.map(\.event))")
            // Notifications at 1 Hz before the drop: about a second apart, 140, 141, ...
            let measurements = events.measurements
            let first = measurements.prefix(3)
            #expect(first.map { $0.measurement.bpm } == [140, 141, 142])
            #expect(first.allSatisfy { $0.measurement.contact == .detected && $0.measurement.rrIntervalsSeconds.count == 1 })
            let gaps = zip(first.dropFirst(), first).map { $0.at - $1.at }
            #expect(gaps.allSatisfy { $0 > 0.5 && $0 < 1.6 }, "\(gaps)")
            // No measurement while it was gone: a gap of more than two seconds.
            let longest = zip(measurements.dropFirst(), measurements).map { $0.at - $1.at }.max() ?? 0
            #expect(longest > 2, "the drop shows as a gap (\(longest) s)")
        }
    }

    @Test("a strap named by address is found; one with another address is never connected",
          .enabled(if: available, "needs dbus-daemon, gdbus and /usr/bin/python3 with python3-dbus and python3-gi"),
          .timeLimit(.minutes(1)))
    func byAddress() async throws {
        try await withStandIn([]) { bus in
            let events = Events()
            let other = try HeartRateStrap.start(.address("AA:BB:CC:DD:EE:FF"), retry: HeartRateRetry(initialSeconds: 0.2, maximumSeconds: 0.4),
                                                 busAddress: bus.address) { events.add($0) }.get()
            let named = Events()
            let strap = try HeartRateStrap.start(.address("C0:FF:EE:00:12:34"), busAddress: bus.address) { named.add($0) }.get()
            defer { strap.stop() }
            #expect(await eventually(seconds: 20) { !named.measurements.isEmpty })
            other.stop()
            #expect(!events.all.contains { if case .connected = $0.event { true } else { false } })
        }
    }

    @Test("sensors scan: the heart-rate strap with its battery, not the headphones",
          .enabled(if: available, "needs dbus-daemon, gdbus and /usr/bin/python3 with python3-dbus and python3-gi"),
          .timeLimit(.minutes(1)))
    func scan() async throws {
        try await withStandIn([]) { bus in
            let straps = try HeartRateStrap.scan(seconds: 0.6, busAddress: bus.address).get()
            #expect(straps == [HeartRateStrapInfo(address: "C0:FF:EE:00:12:34", name: "Polar H10 A1B2C3D4", batteryPercent: 87, rssi: -61)])
        }
    }

    @Test("no BlueZ on the bus: scan says so")
    func noBlueZ() throws {
        guard PrivateBus.isInstalled else { return }
        let bus = try PrivateBus()
        defer { bus.stop() }
        guard case .failure(let error) = HeartRateStrap.scan(seconds: 0, busAddress: bus.address) else {
            Issue.record("scan without BlueZ succeeded")
            return
        }
        #expect(error.description.hasPrefix("no Bluetooth (BlueZ) on the system bus"))
    }

    @Test("two straps at once: auto uses the first and names the other, once",
          .enabled(if: available, "needs dbus-daemon, gdbus and /usr/bin/python3 with python3-dbus and python3-gi"),
          .timeLimit(.minutes(1)))
    func twoStraps() async throws {
        try await withStandIn(["--second-strap"]) { bus in
            let events = Events()
            let strap = try HeartRateStrap.start(.auto, busAddress: bus.address) { events.add($0) }.get()
            defer { strap.stop() }
            #expect(await eventually(seconds: 20) { events.measurements.count >= 2 })
            let several = events.all.compactMap { if case .several(let chosen, let others) = $0.event { (chosen, others) } else { nil } }
            #expect(several.count == 1)
            #expect(several.first?.0 == "C0:FF:EE:00:12:34" && several.first?.1 == ["F0:0D:00:00:00:01"])
        }
    }
}

