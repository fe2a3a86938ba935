import FoundationEssentials
import RunWalkCore

/// Compares our fixes with gpsd's JSON reports (a `.chk` file of gpsd's regression tests, or
/// `gpsdecode` output) epoch by epoch: the tool behind the parity test and `runwalk-bench parity`.
///
/// For every time gpsd reported (its last TPV for that time), our fix for the same time must
/// agree on the mode, and where gpsd has a 2D/3D fix on latitude and longitude (1e-8°),
/// altitude MSL in 3D (1 mm), and speed and course where our epoch's RMC/VTG carried them
/// (gpsd derives speed from positions otherwise). gpsd 3.22 moves dates before 2017 forward
/// by 1024 weeks; we report the receiver's date and add the same 619 315 200 s before comparing.
public enum GpsdAgreement {
    /// One log's comparison.
    public struct Row: Sendable {
        /// The log's name.
        public var log: String
        /// Times gpsd reported.
        public var gpsdEpochs = 0
        /// Of those, how many our fix matches.
        public var agreeing = 0
        /// gpsd times we have no fix for.
        public var missing = 0
        /// Our distinct times.
        public var ours = 0
        /// Our times gpsd did not report.
        public var extra = 0
        /// The first differences, for messages.
        public var differences: [String] = []

        /// A row for `log`, all counts zero.
        public init(log: String) { self.log = log }
    }

    /// Compares `fixes` (in any order; the last fix per time counts) with gpsd's TPVs.
    public static func compare(log: String, fixes: [Fix], oracle: [Int64: GpsdTPV]) -> Row {
        var row = Row(log: log)
        var ours: [Int64: Fix] = [:]
        for fix in fixes { ours[gpsd322Time(fix.time.milliseconds)] = fix }
        row.gpsdEpochs = oracle.count
        row.ours = ours.count
        row.extra = ours.keys.filter { oracle[$0] == nil }.count
        for (time, tpv) in oracle.sorted(by: { $0.key < $1.key }) {
            guard let fix = ours[time] else {
                row.missing += 1
                row.differences.append("\(time): missing")
                continue
            }
            let problems = differences(fix, tpv)
            if problems.isEmpty { row.agreeing += 1 } else { row.differences.append("\(time): \(problems)") }
        }
        return row
    }

    /// What differs between our fix and one TPV (empty when they agree).
    public static func differences(_ fix: Fix, _ tpv: GpsdTPV) -> [String] {
        var problems: [String] = []
        let mode = tpv.mode ?? 0
        if fix.mode?.rawValue != mode { problems.append("mode \(String(describing: fix.mode)) vs \(mode)") }
        func check(_ name: String, _ ours: Double?, _ key: KeyPath<GpsdTPV, Double?>, _ tolerance: Double) {
            let theirs = tpv[keyPath: key]
            guard let ours, let theirs, abs(ours - theirs) <= tolerance else {
                problems.append("\(name) \(String(describing: ours)) vs \(String(describing: theirs))")
                return
            }
        }
        if mode >= 2 {
            check("lat", fix.latitude, \.lat, 1e-8)
            check("lon", fix.longitude, \.lon, 1e-8)
            if fix.speedMetresPerSecond != nil { check("speed", fix.speedMetresPerSecond, \.speed, 1e-3) }
            if fix.courseDegrees != nil { check("course", fix.courseDegrees, \.track, 1e-3) }
        }
        if mode >= 3, tpv.altMSL != nil { check("alt", fix.altitudeMSL, \.altMSL, 1e-3) }
        return problems
    }

    /// gpsd 3.22 puts dates before 2017-01-01 1024 weeks later.
    public static func gpsd322Time(_ milliseconds: Int64) -> Int64 {
        let year2017: Int64 = 1_483_228_800_000
        return milliseconds < year2017 ? milliseconds + 619_315_200_000 : milliseconds
    }

    /// The last TPV with a time, per time, from gpsd's JSON lines (other lines are ignored).
    public static func lastTPVPerTime(json bytes: Data) throws -> [Int64: GpsdTPV] {
        let marker = Data("\"class\":\"TPV\"".utf8)
        var result: [Int64: GpsdTPV] = [:]
        let decoder = JSONDecoder()
        for line in bytes.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D })
        where line.first == 0x7B && line.firstRange(of: marker) != nil {
            let object = try decoder.decode(GpsdTPV.self, from: Data(line))
            guard let time = object.time, let milliseconds = ISO8601Time.parseZoned(time)?.milliseconds else { continue }
            result[milliseconds] = object
        }
        return result
    }
}

/// One of gpsd's TPV reports, the fields the comparison reads (absent ones nil).
public struct GpsdTPV: Decodable, Sendable {
    /// ISO 8601 time of the fix.
    public var time: String?
    /// 0/1 no fix, 2 for 2D, 3 for 3D.
    public var mode: Int?
    /// Latitude, degrees.
    public var lat: Double?
    /// Longitude, degrees.
    public var lon: Double?
    /// Altitude above mean sea level, metres.
    public var altMSL: Double?
    /// Speed over ground, metres per second.
    public var speed: Double?
    /// Course over ground, degrees.
    public var track: Double?
}
