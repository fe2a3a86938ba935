/// Epoch assembly: time, date, cycle boundaries and the mode rules gpsd applies across sentences.
extension NMEADecoder {
    static let millisecondsPerDay: Int64 = 86_400_000
    /// The GPS week number's range in the legacy navigation message, in days.
    static let daysPer1024Weeks: Int64 = 7168

    /// What gpsd's driver sees of the fix when a sentence arrives: the epoch so far, or the
    /// previous epoch when this sentence starts a new one.
    struct Context {
        var mode: FixMode?
        var hasAltitude: Bool
    }

    var context: Context {
        Context(mode: epochOpen ? epoch.mode : nil, hasAltitude: epochOpen && epoch.altitudeMSL != nil)
    }

    /// gpsd's `merge_hhmmss`: takes the time of day; an hour that goes back is the next day.
    mutating func mergeTime(_ timeOfDay: Int64) {
        let hour = timeOfDay / 3_600_000
        if hour < lastHour { day += 1 }
        lastHour = hour
        lastMergedTimeOfDay = timeOfDay
    }

    /// Sets the date (RMC, ZDA); the first one also dates the epochs held back so far.
    mutating func setDate(day newDay: Int64, timeOfDay: Int64, _ emit: (Fix) throws -> Void) rethrows {
        var newDay = newDay
        // A receiver whose GPS week counter wraps mid-log jumps 1024 weeks back; time does not.
        if dateKnown {
            while newDay < day - (Self.daysPer1024Weeks - 2) { newDay += Self.daysPer1024Weeks }
        }
        let firstDate = !dateKnown
        day = newDay
        dateKnown = true
        if firstDate, !held.isEmpty {
            let anchor = newDay * Self.millisecondsPerDay + timeOfDay
            for var pending in held {
                let timeOfDayHeld = pending.fix.time.millisecondOfDay
                var time = newDay * Self.millisecondsPerDay + timeOfDayHeld
                if time > anchor + 3_600_000 { time -= Self.millisecondsPerDay }
                pending.fix.time = UTCTime(milliseconds: time)
                pending.fix.dateKnown = true
                try deliver(pending, emit)
            }
            held.removeAll()
        }
    }

    /// gpsd's `register_fractional_time`: a time that differs from the last registered one
    /// by more than 10 ms starts a new epoch. Returns the context for this sentence's rules.
    /// Nil when the sentence is late: its epoch was already handed out (the caller drops it).
    mutating func register(_ timeOfDay: Int64, _ emit: (Fix) throws -> Void) rethrows -> Context? {
        let before = context
        // gpsd starts a cycle only when the time moves by more than 10 ms, but it reports at
        // every cycle ender, so a sentence type seen twice with two times is two epochs (two
        // fixes 10 ms apart are two fixes in gpsd's output too).
        let repeatsType = sentenceTag != 0 && epochTags & (1 << sentenceTag) != 0 && timeOfDay != epochTimeOfDay
        if let last = lastRegisteredTime, abs(timeOfDay - last) <= 10, !(epochOpen && epochTimed && repeatsType) {
            registeredThisSentence = true
            lastRegisteredTime = timeOfDay
            if epochOpen { epochTags |= 1 << sentenceTag }
            return before
        }
        // Out of order by more than the reorder buffer holds: its epoch is gone; starting it
        // again would report it twice. (Further back is a restart: see `deliver`.)
        let absolute = day * Self.millisecondsPerDay + timeOfDay
        if let last = lastEmittedTime, absolute <= last, absolute > last - Self.lateWindowMilliseconds {
            return nil
        }
        registeredThisSentence = true
        lastRegisteredTime = timeOfDay
        // The timed sentence before a new time ends epochs from now on (gpsd's cycle ender).
        if lastTimedTag != 0 { cycleEnders |= 1 << lastTimedTag }
        try closeEpoch(emit)
        var fix = Fix(time: UTCTime(milliseconds: day * Self.millisecondsPerDay + timeOfDay), dateKnown: false)
        if dateKnown { fix.dateKnown = true }
        epoch = fix
        epochOpen = true
        epochTimed = true
        epochTimeOfDay = timeOfDay
        epochDated = dateKnown
        epochInvalid = false
        epochTags = 1 << sentenceTag
        if let invalid = pendingInvalidTime, abs(invalid - timeOfDay) <= 10 {
            epochInvalid = true
            pendingInvalidTime = nil
        }
        return before
    }

    /// Makes sure there is an epoch to merge into. Before the first timed sentence that is an
    /// untimed one: gpsd keeps what such sentences say for the rules of the first epoch, but
    /// reports no time for it, and neither do we.
    mutating func ensureEpoch() {
        if !epochOpen {
            epoch = Fix(time: UTCTime(milliseconds: 0), dateKnown: false)
            epochOpen = true
            epochTimed = false
            epochInvalid = false
        }
    }

    /// What every timed sentence does with its time: roll the day over if needed, set the date
    /// when the sentence carries one (RMC), start or join the epoch, and stamp it.
    /// Nil when the sentence is late (see `register`).
    mutating func beginTimed(_ timeOfDay: Int64, day newDay: Int64? = nil, _ emit: (Fix) throws -> Void) rethrows -> Context? {
        mergeTime(timeOfDay)
        if let newDay { try setDate(day: newDay, timeOfDay: timeOfDay, emit) }
        guard let context = try register(timeOfDay, emit) else { return nil }
        stampTime(timeOfDay)
        return context
    }

    /// A sentence's time became the epoch's (gpsd's TIME_SET, only once a date is known).
    mutating func stampTime(_ timeOfDay: Int64) {
        guard dateKnown, epochOpen, epochTimed else { return }
        epoch.time = UTCTime(milliseconds: day * Self.millisecondsPerDay + timeOfDay)
        epoch.dateKnown = true
        epochDated = true
    }

    /// Sets the epoch's mode the way gpsd merges it: a 3D fix is not downgraded to 2D while
    /// an altitude has been seen (RMC and GLL do not know about altitude).
    mutating func setMode(_ mode: FixMode, _ context: Context) {
        guard epochOpen else { return }
        var mode = mode
        if mode != .noFix, context.mode == .threeD, context.hasAltitude || altitudeSeen {
            mode = .threeD
        }
        epoch.mode = mode
    }

    /// After each sentence: a timed sentence of a type that ends epochs reports the epoch, as
    /// gpsd does; what later sentences of the epoch change is not in gpsd's report.
    mutating func afterSentence(tag: Int) {
        guard registeredThisSentence else { return }
        registeredThisSentence = false
        if cycleEnders & (1 << tag) != 0, epochOpen { reported = epoch }
        lastTimedTag = tag
    }

    /// The time of an epoch reported at its cycle ender before any date was known: its time of
    /// day, on the date the epoch ended with (an RMC or ZDA after the cycle ender, GLL first,
    /// brought the first date). A date already known is kept as gpsd reports it, even where a
    /// later ZDA of the epoch says otherwise (bt451's restart earlier in the day: gpsd 3.22
    /// dates its first epoch a day later, and the parity test holds us to gpsd).
    static func reportedTime(_ snapshot: Fix, dated full: Fix) -> UTCTime {
        let timeOfDay = snapshot.time.millisecondOfDay
        let fullTimeOfDay = full.time.millisecondOfDay
        var time = full.time.milliseconds - fullTimeOfDay + timeOfDay
        // Sentences of one epoch lie milliseconds apart; more than half a day is midnight between.
        if timeOfDay - fullTimeOfDay > millisecondsPerDay / 2 { time -= millisecondsPerDay }
        if fullTimeOfDay - timeOfDay > millisecondsPerDay / 2 { time += millisecondsPerDay }
        return UTCTime(milliseconds: time)
    }

    mutating func closeEpoch(_ emit: (Fix) throws -> Void) rethrows {
        guard epochOpen else { return }
        epochOpen = false
        let full = epoch
        previousMode = full.mode
        previousHadAltitude = full.altitudeMSL != nil
        if full.altitudeMSL != nil { altitudeSeen = true }
        guard epochTimed else {
            reported = nil
            return
        }
        var fix: Fix
        if var snapshot = reported.take() {
            // Position, motion and mode as reported; the quality figures that come later in
            // the epoch (GSA, GSV, GST) are kept.
            snapshot.hdop = full.hdop ?? snapshot.hdop
            snapshot.pdop = full.pdop ?? snapshot.pdop
            snapshot.vdop = full.vdop ?? snapshot.vdop
            snapshot.satellitesVisible = full.satellitesVisible ?? snapshot.satellitesVisible
            snapshot.latitudeErrorMetres = full.latitudeErrorMetres ?? snapshot.latitudeErrorMetres
            snapshot.longitudeErrorMetres = full.longitudeErrorMetres ?? snapshot.longitudeErrorMetres
            snapshot.altitudeErrorMetres = full.altitudeErrorMetres ?? snapshot.altitudeErrorMetres
            if !snapshot.dateKnown { snapshot.time = Self.reportedTime(snapshot, dated: full) }
            snapshot.dateKnown = full.dateKnown
            fix = snapshot
        } else {
            fix = full
        }
        if !epochDated, dateKnown {
            // The date came after this epoch began: it is today's, or yesterday's if its time
            // of day lies well after the latest one (midnight passed in between).
            var time = day * Self.millisecondsPerDay + epochTimeOfDay
            if epochTimeOfDay > lastMergedTimeOfDay + 3_600_000 { time -= Self.millisecondsPerDay }
            fix.time = UTCTime(milliseconds: time)
        }
        fix.dateKnown = epochDated || dateKnown
        let pending = PendingFix(fix: fix, invalid: epochInvalid)
        if fix.dateKnown || givenUpWaitingForDate {
            try deliver(pending, emit)
        } else {
            held.append(pending)
            if held.count > datelessHoldLimit {
                givenUpWaitingForDate = true
                for fix in held { try deliver(fix, emit) }
                held.removeAll()
            }
        }
    }

}
