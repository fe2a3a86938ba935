/// Turns NMEA lines into fixes, one per epoch (the sentences that share a time).
///
/// Feed it lines in order; a fix comes out when a sentence with a new time shows that
/// the previous epoch is complete, and the last one on `finish()`.
public struct NMEADecoder: Sendable {
    /// Counts of what was read.
    public struct Statistics: Sendable, Equatable {
        public var lines = 0
        public var sentences = 0
        /// Lines that were meant as sentences but could not be used (bad checksum, junk, truncated).
        public var linesBad = 0
        /// Valid sentences that carry nothing for a fix (proprietary, AIS, GSV, unknown types).
        public var skipped = 0
        public var epochs = 0
        public var problems: [NMEASentence.Problem: Int] = [:]
    }

    /// What one line did.
    public struct Output: Sendable {
        public var fix: Fix?
        public var problem: NMEASentence.Problem?
    }

    public private(set) var statistics = Statistics()
    private var epoch: Fix?
    private var epochTimeOfDay: Int64?
    private var date: (year: Int, month: Int, day: Int)?
    private var lastEmitted: UTCTime?
    private var dayOffset: Int64 = 0

    public init() {}

    /// Decodes one line (without its terminator). `#` comment lines and blank lines are ignored.
    public mutating func feed(line: Substring) -> Output {
        if line.isEmpty || line.first == "#" { return Output() }
        statistics.lines += 1
        switch NMEASentence.parse(String(line)) {
        case .failure(let problem):
            return note(problem, bad: true)
        case .success(let sentence):
            statistics.sentences += 1
            if sentence.talker.isEmpty { return note(.proprietary, bad: false) }
            switch sentence.type {
            case "GGA": return decodeGGA(sentence)
            case "RMC": return decodeRMC(sentence)
            default: return note(.unsupported, bad: false)
            }
        }
    }

    /// Emits the last epoch.
    public mutating func finish() -> Fix? {
        defer { epoch = nil; epochTimeOfDay = nil }
        guard let epoch else { return nil }
        return complete(epoch)
    }

    private mutating func note(_ problem: NMEASentence.Problem, bad: Bool) -> Output {
        statistics.problems[problem, default: 0] += 1
        if bad { statistics.linesBad += 1 } else { statistics.skipped += 1 }
        return Output(problem: problem)
    }

    // MARK: Sentences

    /// `$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47`
    /// time, lat, N/S, lon, E/W, quality, satellites, HDOP, altitude, M, geoid separation, M, DGPS age, station.
    private mutating func decodeGGA(_ s: NMEASentence) -> Output {
        guard let time = Self.timeOfDay(s[0]) else { return note(.truncatedField, bad: true) }
        var output = Output()
        output.fix = beginEpoch(at: time)
        guard var fix = epoch else { return output }
        let quality = Int(s[5])
        fix.quality = quality
        if let quality, quality > 0, let lat = Self.coordinate(s[1], s[2], degreeDigits: 2),
           let lon = Self.coordinate(s[3], s[4], degreeDigits: 3) {
            fix.latitude = lat
            fix.longitude = lon
            fix.altitudeMSL = Double(s[8])
            fix.geoidSeparation = Double(s[10])
            if fix.mode == nil { fix.mode = fix.altitudeMSL != nil ? .threeD : .twoD }
        } else if quality == 0 {
            fix.mode = .noFix
        }
        fix.satellitesUsed = Int(s[6]) ?? fix.satellitesUsed
        fix.hdop = Double(s[7]) ?? fix.hdop
        epoch = fix
        return output
    }

    /// `$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A`
    /// time, status A/V, lat, N/S, lon, E/W, speed knots, course, date ddmmyy, variation, E/W.
    private mutating func decodeRMC(_ s: NMEASentence) -> Output {
        guard let time = Self.timeOfDay(s[0]) else { return note(.truncatedField, bad: true) }
        if let d = Self.date(s[8]) { date = d }
        var output = Output()
        output.fix = beginEpoch(at: time)
        guard var fix = epoch else { return output }
        if s[1] == "A", let lat = Self.coordinate(s[2], s[3], degreeDigits: 2),
           let lon = Self.coordinate(s[4], s[5], degreeDigits: 3) {
            fix.latitude = fix.latitude ?? lat
            fix.longitude = fix.longitude ?? lon
            if fix.mode == nil { fix.mode = .twoD }
            if let knots = Double(s[6]) { fix.speedMetresPerSecond = knots * 1852.0 / 3600.0 }
            if let course = Double(s[7]) { fix.courseDegrees = course }
        } else if s[1] == "V", fix.latitude == nil {
            fix.mode = .noFix
        }
        epoch = fix
        return output
    }

    // MARK: Epochs

    /// Starts (or continues) the epoch at `timeOfDay`; returns the previous epoch when this is a new one.
    private mutating func beginEpoch(at timeOfDay: Int64) -> Fix? {
        if timeOfDay == epochTimeOfDay { return nil }
        var finished: Fix?
        if let epoch { finished = complete(epoch) }
        epochTimeOfDay = timeOfDay
        epoch = Fix(time: UTCTime(milliseconds: timeOfDay), dateKnown: false)
        return finished
    }

    private mutating func complete(_ fix: Fix) -> Fix {
        var fix = fix
        let timeOfDay = fix.time.milliseconds
        let base: UTCTime
        if let date {
            base = UTCTime(year: date.year, month: date.month, day: date.day, secondsOfDayMilli: 0)
            fix.dateKnown = true
        } else {
            base = UTCTime(milliseconds: 0)
        }
        var time = UTCTime(milliseconds: base.milliseconds + dayOffset * 86_400_000 + timeOfDay)
        // Time-only logs (or a date not yet updated): a time of day that goes back by more than
        // twelve hours is the next day.
        if let last = lastEmitted, time.milliseconds < last.milliseconds - 43_200_000 {
            dayOffset += 1
            time = UTCTime(milliseconds: time.milliseconds + 86_400_000)
        } else if let last = lastEmitted, date != nil, time.milliseconds > last.milliseconds + 43_200_000, dayOffset > 0 {
            // A new date arrived that already includes the rollover.
            dayOffset = 0
            time = UTCTime(milliseconds: base.milliseconds + timeOfDay)
        }
        fix.time = time
        lastEmitted = time
        statistics.epochs += 1
        return fix
    }

    // MARK: Fields

    /// `hhmmss(.sss)` → milliseconds of the day.
    static func timeOfDay(_ field: Substring) -> Int64? {
        guard field.count >= 6 else { return nil }
        let digits = field.utf8
        var values: [Int64] = []
        var index = digits.startIndex
        for _ in 0..<3 {
            let a = digits[index], b = digits[digits.index(after: index)]
            guard (48...57).contains(a), (48...57).contains(b) else { return nil }
            values.append(Int64(a - 48) * 10 + Int64(b - 48))
            index = digits.index(index, offsetBy: 2)
        }
        guard values[0] < 24, values[1] < 60, values[2] <= 60 else { return nil }
        var millis: Int64 = 0
        if index < digits.endIndex {
            guard digits[index] == UInt8(ascii: ".") else { return nil }
            var scale: Int64 = 100
            for byte in digits[digits.index(after: index)...] {
                guard (48...57).contains(byte) else { return nil }
                millis += Int64(byte - 48) * scale
                scale /= 10
            }
        }
        return ((values[0] * 60 + values[1]) * 60 + values[2]) * 1000 + millis
    }

    /// `ddmmyy` → a civil date (years 80–99 are 1980–1999, else 20xx).
    static func date(_ field: Substring) -> (year: Int, month: Int, day: Int)? {
        guard field.count == 6, let value = Int(field) else { return nil }
        let day = value / 10000, month = value / 100 % 100, yy = value % 100
        guard (1...31).contains(day), (1...12).contains(month) else { return nil }
        return (yy >= 80 ? 1900 + yy : 2000 + yy, month, day)
    }

    /// `ddmm.mmmm` / `dddmm.mmmm` with its hemisphere → signed degrees.
    static func coordinate(_ field: Substring, _ hemisphere: Substring, degreeDigits: Int) -> Double? {
        guard field.count > degreeDigits + 1, let value = Double(field), value >= 0 else { return nil }
        let degrees = (value / 100).rounded(.towardZero)
        let minutes = value - degrees * 100
        guard minutes < 60 else { return nil }
        let result = degrees + minutes / 60
        switch hemisphere {
        case "N", "E": return result
        case "S", "W": return -result
        default: return nil
        }
    }
}
