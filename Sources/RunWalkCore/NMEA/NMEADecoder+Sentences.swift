/// One decoder per sentence type. Field numbers are gpsd's: field 0 is the address.
extension NMEADecoder {
    static let metresPerSecondPerKnot = 1852.0 / 3600.0

    /// `$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47`
    /// 1 time, 2–5 lat/N/S lon/E/W, 6 quality, 7 satellites used, 8 HDOP, 9–10 altitude MSL,
    /// 11–12 geoid separation, 13 DGPS age, 14 station.
    mutating func decodeGGA(_ s: NMEAFields, talker: UInt8, _ emit: (Fix) throws -> Void) rethrows
        -> NMEASentence.Problem? {
        guard s.count >= 10 else { return .truncatedField }
        let time = NMEAField.timeOfDay(s[1])
        if time == nil, !s.isEmpty(1) { return .truncatedField }
        // A GGA repeating the last one's time (same talker) means the receiver lost lock
        // and keeps repeating itself: gpsd then distrusts the GSA that follows.
        if lastGGATalker != 0, lastGGATalker != talker {
            latchMode = false
        } else {
            latchMode = time != nil && time == lastGGATime
        }
        lastGGATalker = talker
        if !latchMode { lastGGATime = time }
        // Quality 0 without a time (Quectel's `$GPGGA,,,,,,0,,,,,,,,`): gpsd reports it on its
        // own and keeps the epoch before it, as for a time-less `RMC,V`.
        if time == nil, epochOpen, epochTimed, NMEAField.integer(s[6]) == 0 { return nil }
        var context = self.context
        if let time {
            guard let timed = try beginTimed(time, emit) else { return .late }
            context = timed
        }
        ensureEpoch()
        if let quality = NMEAField.integer(s[6]) {
            epoch.quality = quality
            // Quality 0: the receiver says the position is not valid, whatever else it prints.
            if quality == 0, time != nil { epochInvalid = true }
        }
        let satellites = NMEAField.leadingInteger(s[7])
        if let used = NMEAField.integer(s[7]) { epoch.satellitesUsed = used }
        if let hdop = NMEAField.decimal(s[8]), hdop >= 0 { epoch.hdop = hdop }
        if let lat = NMEAField.coordinate(s[2], hemisphere: s[3], limit: 90),
           let lon = NMEAField.coordinate(s[4], hemisphere: s[5], limit: 180) {
            epoch.latitude = lat
            epoch.longitude = lon
            var mode = FixMode.twoD
            if let altitude = NMEAField.decimal(s[9]) {
                epoch.altitudeMSL = altitude
                if satellites >= 4 { mode = .threeD }
            }
            if let separation = NMEAField.decimal(s[11]) { epoch.geoidSeparation = separation }
            if satellites < 3 { mode = .noFix }
            setMode(mode, context)
        } else {
            setMode(.noFix, context)
        }
        return nil
    }

    /// `$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A`
    /// 1 time, 2 status A/D valid, V invalid, 3–6 position, 7 speed knots, 8 course true,
    /// 9 date ddmmyy, 10–11 magnetic variation, 12 FAA mode.
    mutating func decodeRMC(_ s: NMEAFields, _ emit: (Fix) throws -> Void) rethrows -> NMEASentence.Problem? {
        guard s.count >= 9 else { return .truncatedField }
        let status = s.first(2)
        guard status == 0x41 || status == 0x44 else { // not A or D: no fix, and time not trusted
            markInvalid(at: NMEAField.timeOfDay(s[1]))
            return nil
        }
        // NMEA 2.3 mode indicator N: not valid, even with status A.
        let modeNotValid = s.count > 12 && s.first(12) == 0x4E
        var context = self.context
        if let time = NMEAField.timeOfDay(s[1]), let date = NMEAField.dayNumber(ddmmyy: s[9]) {
            guard let timed = try beginTimed(time, day: date, emit) else { return .late }
            context = timed
        } else if !s.isEmpty(1), NMEAField.timeOfDay(s[1]) == nil {
            return .truncatedField
        }
        ensureEpoch()
        var mode: FixMode
        if let lat = NMEAField.coordinate(s[3], hemisphere: s[4], limit: 90),
           let lon = NMEAField.coordinate(s[5], hemisphere: s[6], limit: 180) {
            epoch.latitude = lat
            epoch.longitude = lon
            mode = context.mode == .threeD ? .threeD : .twoD
            if satellitesUsedInSolution > 3 || context.hasAltitude { mode = .threeD }
        } else {
            mode = .noFix
        }
        if let knots = NMEAField.decimal(s[7]), knots >= 0 {
            epoch.speedMetresPerSecond = knots * Self.metresPerSecondPerKnot
        }
        if let course = NMEAField.decimal(s[8]), course >= 0, course <= 360 { epoch.courseDegrees = course }
        setMode(mode, context)
        if modeNotValid { epochInvalid = true }
        return nil
    }

    /// An invalid RMC: with its epoch's time (or no time) the epoch is invalid; with a time no
    /// epoch has yet, the epoch of that time will be (its time does not start one).
    /// A time-less one (Quectel's `$GNRMC,,V,...`) is a report of its own in gpsd, which keeps
    /// the epoch before it: it does not touch a timed epoch.
    mutating func markInvalid(at time: Int64?) {
        if time == nil, epochOpen, epochTimed { return }
        guard epochOpen else {
            pendingInvalidTime = time
            return
        }
        if let time, !epochTimed || abs(time - epochTimeOfDay) > 10 {
            pendingInvalidTime = time
            return
        }
        epoch.mode = .noFix
        epochInvalid = true
    }

    /// `$GPGLL,4916.45,N,12311.12,W,225444,A,A*5C`
    /// 1–4 position, 5 time, 6 status A/V, 7 FAA mode.
    mutating func decodeGLL(_ s: NMEAFields, _ emit: (Fix) throws -> Void) rethrows -> NMEASentence.Problem? {
        guard s.count >= 7 else { return .truncatedField }
        var context = self.context
        if !s.isEmpty(5) {
            guard let time = NMEAField.timeOfDay(s[5]) else { return .truncatedField }
            guard let timed = try beginTimed(time, emit) else { return .late }
            context = timed
        }
        ensureEpoch()
        // Status V, or mode indicator N: the receiver says the position is not valid.
        if s.first(6) == 0x56 || (s.count >= 8 && s.first(7) == 0x4E) { epochInvalid = true }
        if s.first(6) == 0x41, s.count < 8 || s.first(7) != 0x4E,
           let lat = NMEAField.coordinate(s[1], hemisphere: s[2], limit: 90),
           let lon = NMEAField.coordinate(s[3], hemisphere: s[4], limit: 180) {
            epoch.latitude = lat
            epoch.longitude = lon
            if context.hasAltitude || satellitesUsedInSolution > 3 {
                setMode(.threeD, context)
            } else if (context.mode ?? .noFix) < .twoD || !altitudeSeen {
                setMode(.twoD, context)
            } else if let mode = context.mode {
                setMode(mode, context)
            }
        } else {
            epoch.mode = .noFix
        }
        return nil
    }

    /// `$GPGNS,224749.00,3333.4268304,N,11153.3538273,W,D,19,0.6,406.110,-26.294,6.0,0138,S*6A`
    /// 1 time, 2–5 position, 6 mode per constellation, 7 satellites, 8 HDOP, 9 altitude MSL,
    /// 10 geoid separation, 11 DGPS age, 12 station, 13 navigation status.
    mutating func decodeGNS(_ s: NMEAFields, _ emit: (Fix) throws -> Void) rethrows -> NMEASentence.Problem? {
        guard s.count >= 7 else { return .truncatedField }
        var context = self.context
        if !s.isEmpty(1) {
            guard let time = NMEAField.timeOfDay(s[1]) else { return .truncatedField }
            guard let timed = try beginTimed(time, emit) else { return .late }
            context = timed
        }
        ensureEpoch()
        // One mode character per constellation: the fix is valid when any of them is not N.
        let modes = s[6]
        if modes.isEmpty || modes.allSatisfy({ $0 == 0x4E }) {
            epoch.mode = .noFix
            if !modes.isEmpty { epochInvalid = true }
            return nil
        }
        let status = s.first(13)
        if status == 0x55 || status == 0x56 { return nil }
        let satellites = NMEAField.leadingInteger(s[7])
        if let used = NMEAField.integer(s[7]) { epoch.satellitesUsed = used }
        if let hdop = NMEAField.decimal(s[8]), hdop >= 0 { epoch.hdop = hdop }
        if let lat = NMEAField.coordinate(s[2], hemisphere: s[3], limit: 90),
           let lon = NMEAField.coordinate(s[4], hemisphere: s[5], limit: 180) {
            epoch.latitude = lat
            epoch.longitude = lon
            var mode = FixMode.twoD
            if let altitude = NMEAField.decimal(s[9]) {
                epoch.altitudeMSL = altitude
                if satellites > 3 { mode = .threeD }
            }
            if let separation = NMEAField.decimal(s[10]) { epoch.geoidSeparation = separation }
            setMode(mode, context)
        } else {
            setMode(.noFix, context)
        }
        return nil
    }

    /// `$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K,A*25`
    /// 1–2 course true, 3–4 course magnetic, 5–6 speed knots, 7–8 speed km/h, 9 FAA mode.
    mutating func decodeVTG(_ s: NMEAFields) -> NMEASentence.Problem? {
        guard s.count >= 6 else { return .truncatedField }
        guard !s.isEmpty(1), !s.isEmpty(5) else { return nil }
        ensureEpoch()
        let faa = s.first(9)
        if faa == 0x45 || faa == 0x4E { return nil } // estimated or not valid
        if let course = NMEAField.decimal(s[1]), course >= 0, course <= 360 { epoch.courseDegrees = course }
        if let knots = NMEAField.decimal(s[5]), knots >= 0 {
            epoch.speedMetresPerSecond = knots * Self.metresPerSecondPerKnot
        }
        return nil
    }

    /// `$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1*39`
    /// 1 selection mode, 2 fix mode 1/2/3, 3–14 satellites used, 15 PDOP, 16 HDOP, 17 VDOP,
    /// 18 system ID (NMEA 4.1).
    mutating func decodeGSA(_ s: NMEAFields, talker: UInt8) -> NMEASentence.Problem? {
        let previousTalker = lastGSATalker
        lastGSATalker = talker
        guard s.count >= 18, !latchMode else { return nil }
        // Several GSAs in one epoch (one per constellation) add up their satellites.
        if previousTalker == 0 || (previousTalker == talker && talker != 0x4E) {
            satellitesUsedInSolution = 0
        }
        if talker == 0x4C || talker == 0x42 || talker == 0x44 || talker == 0x41 || talker == 0x51 {
            seenNonGPSGSA = true
        }
        for i in 3..<(s.count - 3) where NMEAField.leadingInteger(s[i]) > 0 { satellitesUsedInSolution += 1 }
        // gpsd ignores GPGSA once other constellations report their own.
        if seenNonGPSGSA, talker == 0x50 { return nil }
        ensureEpoch()
        if s.first(2) != 0x45, let mode = FixMode(rawValue: NMEAField.leadingInteger(s[2])) {
            setMode(mode, context)
        }
        let firstOfGNPair = previousTalker != 0x4E && talker == 0x4E
        if s.count <= 19, !firstOfGNPair {
            if let pdop = NMEAField.decimal(s[15]), pdop >= 0 { epoch.pdop = pdop }
            if let hdop = NMEAField.decimal(s[16]), hdop >= 0 { epoch.hdop = hdop }
            if let vdop = NMEAField.decimal(s[17]), vdop >= 0 { epoch.vdop = vdop }
        }
        return nil
    }

    /// `$GPGSV,2,1,08,01,40,083,46,02,17,308,41,12,07,344,39,14,22,228,45*75`
    /// 1 sentences, 2 this one, 3 satellites in view, then 4 fields per satellite.
    mutating func decodeGSV(_ s: NMEAFields) -> NMEASentence.Problem? {
        guard s.count >= 4 else { return .truncatedField }
        ensureEpoch()
        if let inView = NMEAField.integer(s[3]) { epoch.satellitesVisible = inView }
        return nil
    }

    /// `$GPGST,172814.0,0.006,0.023,0.020,273.6,0.023,0.020,0.031*6A`
    /// 1 time, 2 RMS, 3–5 error ellipse, 6–8 standard deviation of lat, lon, altitude (m).
    mutating func decodeGST(_ s: NMEAFields) -> NMEASentence.Problem? {
        guard s.count >= 9 else { return .truncatedField }
        ensureEpoch()
        if let v = NMEAField.decimal(s[6]), v >= 0 { epoch.latitudeErrorMetres = v }
        if let v = NMEAField.decimal(s[7]), v >= 0 { epoch.longitudeErrorMetres = v }
        if let v = NMEAField.decimal(s[8]), v >= 0 { epoch.altitudeErrorMetres = v }
        return nil
    }

    /// `$GPZDA,160012.71,11,03,2004,-1,00*7D`
    /// 1 time, 2 day, 3 month, 4 year, 5–6 local zone.
    mutating func decodeZDA(_ s: NMEAFields, _ emit: (Fix) throws -> Void) rethrows -> NMEASentence.Problem? {
        guard s.count >= 5 else { return .truncatedField }
        if s.isEmpty(1) || s.isEmpty(2) || s.isEmpty(3) || s.isEmpty(4) { return nil }
        guard let time = NMEAField.timeOfDay(s[1]) else { return .truncatedField }
        mergeTime(time)
        guard let year = NMEAField.integer(s[4]), let month = NMEAField.integer(s[3]),
              let dayOfMonth = NMEAField.integer(s[2]),
              (1900...2200).contains(year), (1...12).contains(month), (1...31).contains(dayOfMonth) else {
            return .truncatedField
        }
        try setDate(day: Int64(UTCTime.daysFromCivil(year: year, month: month, day: dayOfMonth)), timeOfDay: time, emit)
        // ZDA does not start epochs (some receivers send it only with a fix); its time names
        // the epoch only when it is that epoch's time.
        if epochOpen, abs(time - epochTimeOfDay) <= 10 { stampTime(time) }
        return nil
    }

    /// `$GPGBS,082941.00,2.4,1.5,3.9,25,,-43.7,27.5*65`: only its time matters, which gpsd
    /// uses to find where epochs start.
    mutating func decodeGBS(_ s: NMEAFields, _ emit: (Fix) throws -> Void) rethrows -> NMEASentence.Problem? {
        if let time = NMEAField.timeOfDay(s[1]), try register(time, emit) == nil { return .late }
        return nil
    }

    /// `$PGRMZ,246,f,3*1B`: Garmin altitude in feet and fix mode, which gpsd merges.
    mutating func decodePGRMZ(_ s: NMEAFields) {
        ensureEpoch()
        let context = self.context
        if s.first(2) == 0x66, !s.isEmpty(1) { epoch.altitudeMSL = Double(NMEAField.leadingInteger(s[1])) * 0.3048 }
        switch s.first(3) {
        case 0x31: setMode(.noFix, context)
        case 0x32: setMode(.twoD, context)
        case 0x33: setMode(.threeD, context)
        default: break
        }
    }
}
