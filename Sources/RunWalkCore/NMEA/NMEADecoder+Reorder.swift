/// The last stage of the decoder: closed epochs wait here, in time order, for parts that
/// arrive late, so that a log whose sentences are out of order (high-rate receivers, loggers
/// that interleave two ports) still gives each epoch once, complete and in time order.
extension NMEADecoder {
    /// A closed (possibly partial) epoch and whether the receiver flagged it as invalid.
    struct PendingFix: Sendable {
        var fix: Fix
        var invalid: Bool

        /// Adds what a later part of the same epoch says: values this part lacks, the better
        /// mode, and the receiver's "not valid", which no other sentence of the epoch overrides.
        mutating func merge(_ other: PendingFix) {
            invalid = invalid || other.invalid
            let o = other.fix
            fix.dateKnown = fix.dateKnown || o.dateKnown
            if fix.latitude == nil || fix.longitude == nil {
                fix.latitude = o.latitude
                fix.longitude = o.longitude
            }
            fix.altitudeMSL = fix.altitudeMSL ?? o.altitudeMSL
            fix.geoidSeparation = fix.geoidSeparation ?? o.geoidSeparation
            fix.speedMetresPerSecond = fix.speedMetresPerSecond ?? o.speedMetresPerSecond
            fix.courseDegrees = fix.courseDegrees ?? o.courseDegrees
            if let mode = o.mode { fix.mode = max(fix.mode ?? mode, mode) }
            fix.quality = fix.quality ?? o.quality
            fix.hdop = fix.hdop ?? o.hdop
            fix.vdop = fix.vdop ?? o.vdop
            fix.pdop = fix.pdop ?? o.pdop
            fix.satellitesUsed = fix.satellitesUsed ?? o.satellitesUsed
            fix.satellitesVisible = fix.satellitesVisible ?? o.satellitesVisible
            fix.latitudeErrorMetres = fix.latitudeErrorMetres ?? o.latitudeErrorMetres
            fix.longitudeErrorMetres = fix.longitudeErrorMetres ?? o.longitudeErrorMetres
            fix.altitudeErrorMetres = fix.altitudeErrorMetres ?? o.altitudeErrorMetres
            fix.horizontalErrorMetres = fix.horizontalErrorMetres ?? o.horizontalErrorMetres
            fix.verticalErrorMetres = fix.verticalErrorMetres ?? o.verticalErrorMetres
        }
    }

    /// Takes a closed epoch: merged into a waiting one of the same time, dropped when its time
    /// was already handed out (a late part), otherwise queued; the oldest goes out once more
    /// than `reorderDepth` times wait.
    mutating func deliver(_ pending: PendingFix, _ emit: (Fix) throws -> Void) rethrows {
        let time = pending.fix.time.milliseconds
        if let last = lastEmittedTime, time <= last {
            if time > last - Self.lateWindowMilliseconds {
                statistics.epochsLate += 1
                return
            }
            // Far back: the receiver or the log started over; report it as gpsd does.
            try flushReorder(emit)
            lastEmittedTime = nil
        }
        var index = reorder.count
        while index > 0, reorder[index - 1].fix.time.milliseconds >= time { index -= 1 }
        if index < reorder.count, reorder[index].fix.time.milliseconds == time {
            reorder[index].merge(pending)
        } else {
            reorder.insert(pending, at: index)
        }
        while reorder.count > reorderDepth {
            try hand(reorder.removeFirst(), emit)
        }
    }

    /// Hands out every waiting epoch (end of the log, or a restart).
    mutating func flushReorder(_ emit: (Fix) throws -> Void) rethrows {
        let waiting = reorder
        reorder.removeAll()
        for pending in waiting { try hand(pending, emit) }
    }

    private mutating func hand(_ pending: PendingFix, _ emit: (Fix) throws -> Void) rethrows {
        var fix = pending.fix
        if pending.invalid {
            // The receiver said its position is not valid: none is reported (gpsd: mode 1).
            fix.mode = .noFix
            fix.latitude = nil
            fix.longitude = nil
            fix.altitudeMSL = nil
            statistics.epochsInvalid += 1
        } else if fix.mode == .noFix {
            // Mode 1 (e.g. GGA with fewer than 3 satellites): gpsd gives no position for it.
            fix.latitude = nil
            fix.longitude = nil
            fix.altitudeMSL = nil
        }
        lastEmittedTime = fix.time.milliseconds
        statistics.epochs += 1
        try emit(fix)
    }
}
