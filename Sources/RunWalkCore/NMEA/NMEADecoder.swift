/// Turns NMEA 0183 lines into fixes, one per epoch (the sentences that share a time).
///
/// Feed it lines in order; a fix comes out when a sentence with a new time shows that the
/// previous epoch is complete, and the last one on `finish`. The rules follow gpsd 3.22's
/// NMEA driver, so the fixes agree with what gpsd reports for the same log: a timed sentence
/// (GGA, RMC, GLL, GNS, GBS) with a new time starts an epoch; GGA/GNS/GLL/RMC give the
/// position, RMC/VTG speed and course, GSA the mode and DOPs, GST the error ellipse, RMC or
/// ZDA the date. Epochs seen before the first date are held back (at most
/// `datelessHoldLimit`) and dated once the date arrives; in logs without any date they come
/// out with `dateKnown == false`, days counted from 1970-01-01 and rolled over at midnight.
///
/// ```swift
/// var decoder = NMEADecoder()
/// for line in lines { decoder.feed(line: line) { fix in print(fix.time) } }
/// decoder.finish { fix in print(fix.time) }
/// ```
public struct NMEADecoder: Sendable {
    /// Counts of what was read.
    public struct Statistics: Sendable, Equatable {
        /// Lines seen, comments and blank lines excluded.
        public var lines = 0
        /// Lines that held a well-formed sentence (checksum good or absent).
        public var sentences = 0
        /// Lines that were meant as sentences but could not be used (bad checksum, junk, truncated).
        public var linesBad = 0
        /// Valid sentences that carry nothing for a fix (proprietary, AIS, unknown types).
        public var skipped = 0
        /// Epochs (fixes) produced.
        public var epochs = 0
        /// Epochs whose receiver said "no valid fix" (RMC status `V` or mode `N`, GGA quality 0,
        /// GNS mode all `N`, GLL status `V` or mode `N`): reported without a position.
        public var epochsInvalid = 0
        /// Partial epochs dropped because their time was already reported (sentences that came
        /// too late in a log whose sentences are out of order).
        public var epochsLate = 0
        /// Bytes that were not part of any sentence: junk before a `$` or `!` on its line, and
        /// binary packets (UBX) skipped by the framer, which adds its own count.
        public var junkBytes = 0
        var problemCounts = [Int](repeating: 0, count: NMEASentence.Problem.allCases.count)

        /// How often each problem occurred.
        public var problems: [NMEASentence.Problem: Int] {
            var result: [NMEASentence.Problem: Int] = [:]
            for problem in NMEASentence.Problem.allCases where problemCounts[problem.index] > 0 {
                result[problem] = problemCounts[problem.index]
            }
            return result
        }
    }

    /// What one line did (the allocating convenience API).
    public struct Output: Sendable {
        /// Fixes completed by this line, oldest first.
        public var fixes: [Fix] = []
        /// What was wrong with the line, or why it was skipped.
        public var problem: NMEASentence.Problem?
        /// The first fix completed by this line.
        public var fix: Fix? { fixes.first }
    }

    /// Epochs held by default while no date is known, before giving up and emitting them undated.
    public static let defaultDatelessHoldLimit = 64

    /// Epochs held while no date is known in live use: enough for a receiver that ends its
    /// epochs with GLL and sends the RMC with the date after it (the first fix then waits one
    /// epoch, once), and a bounded wait for one that never sends a date.
    public static let liveDatelessHoldLimit = 2

    /// How many epochs this decoder holds back waiting for a date (0: none).
    public let datelessHoldLimit: Int

    /// How many closed epochs wait for parts that arrive out of order (0: an epoch goes out as
    /// soon as the next one starts).
    public let reorderDepth: Int

    /// A partial epoch older than the last reported one by at most this much is a late part of
    /// it and dropped; one further back is a restart of the receiver or the log, reported anew.
    public static let lateWindowMilliseconds: Int64 = 2_000

    /// What has been read so far.
    public internal(set) var statistics = Statistics()

    // Date and time, as gpsd keeps them.
    var day: Int64 = 0
    var dateKnown = false
    var lastHour: Int64 = 0
    var lastMergedTimeOfDay: Int64 = 0
    var lastRegisteredTime: Int64?

    // The epoch being assembled, and what gpsd remembers of the one before.
    /// Meaningful only while `epochOpen`; kept in place (not an optional) so that each
    /// sentence's fields are stored without copying the whole fix.
    var epoch = Fix(time: UTCTime(milliseconds: 0), dateKnown: false)
    /// An epoch is being assembled.
    var epochOpen = false
    var epochTimeOfDay: Int64 = 0
    var epochDated = false
    var epochTimed = false
    /// Whether any epoch so far had an altitude (gpsd's last fix keeps it).
    var altitudeSeen = false
    var previousMode: FixMode?
    var previousHadAltitude = false
    var held: [PendingFix] = []
    /// The receiver flagged the epoch being assembled as not a valid fix.
    var epochInvalid = false
    /// An RMC said "no valid fix" at a time that no epoch has yet (its time is not trusted to
    /// start one, as in gpsd): the epoch of that time, when it comes, is invalid.
    var pendingInvalidTime: Int64?
    /// Closed epochs waiting, in time order, for late parts (see `reorderDepth`).
    var reorder: [PendingFix] = []
    /// The time of the last epoch handed out.
    var lastEmittedTime: Int64?
    /// The epoch as it stood when its cycle-ending sentence arrived.
    var reported: Fix?
    /// Sentence types (bit per `Tag`) after which gpsd reports the epoch.
    var cycleEnders: UInt8 = 0
    var lastTimedTag = 0
    /// The timed sentence type being decoded (0: none), and those the open epoch has had.
    var sentenceTag = 0
    var epochTags: UInt8 = 0
    var registeredThisSentence = false
    var givenUpWaitingForDate = false

    // Cross-sentence state of gpsd's driver.
    var satellitesUsedInSolution = 0
    var lastGSATalker: UInt8 = 0
    var seenNonGPSGSA = false
    var lastGGATalker: UInt8 = 0
    var lastGGATime: Int64?
    var latchMode = false

    /// The head of a sentence that another one cut into; joined with the next line if that
    /// continues it (gpsd's packet layer recovers these too).
    var collisionHead: [UInt8] = []

    /// A decoder that holds up to `datelessHoldLimit` epochs until a date arrives and keeps
    /// `reorderDepth` closed epochs waiting for late sentences (default 2, or 0 without a date
    /// hold, so that live use adds no delay).
    public init(datelessHoldLimit: Int = NMEADecoder.defaultDatelessHoldLimit, reorderDepth: Int? = nil) {
        self.datelessHoldLimit = max(0, datelessHoldLimit)
        self.reorderDepth = max(0, reorderDepth ?? (datelessHoldLimit == 0 ? 0 : 2))
    }

    // MARK: Lines

    /// Decodes one line (without its terminator); calls `emit` with each completed epoch.
    /// Returns the problem with the line, if any. `#` comment lines and blank lines are ignored.
    @inline(__always)
    public mutating func feed(line: UnsafeBufferPointer<UInt8>, _ emit: (Fix) throws -> Void) rethrows
        -> NMEASentence.Problem? {
        guard let first = line.first else { return nil }
        // A `#` comment (gpsd's test logs), whatever text it holds (`$` too), unless binary
        // bytes that happen to start with `#` run into a sentence.
        if first == 0x23, !Self.isBinaryRunningIntoSentence(line) { return nil }
        if line.count == 1, first == 0x20 || first == 0x09 { return nil }
        statistics.lines += 1
        if !collisionHead.isEmpty {
            if first != 0x24, first != 0x21, let recovered = try joinCollision(line, emit) {
                return recovered.problem
            }
            collisionHead.removeAll(keepingCapacity: true)
            count(.collision)
        }
        return try NMEAFields.withFields(of: line) { scan in
            switch scan {
            case .failure(let problem):
                count(problem)
                return problem
            case .success(let fields):
                if let junk = fields.junkBefore {
                    statistics.junkBytes += junk.count
                    if Self.looksLikeSentenceHead(UnsafeBufferPointer(rebasing: line[junk])) {
                        collisionHead.append(contentsOf: UnsafeBufferPointer(rebasing: line[junk]))
                    }
                }
                return try decode(fields, emit)
            }
        }
    }

    /// Whether a line that starts with `#` is binary data (a control byte) before a `$` or `!`,
    /// rather than a comment.
    static func isBinaryRunningIntoSentence(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        var binary = false
        for byte in line {
            if byte == 0x24 || byte == 0x21 { return binary }
            if (byte < 0x20 && byte != 0x09) || byte == 0x7F { binary = true }
        }
        return false
    }

    /// Whether the bytes before a sentence are the head of another one that it cut into: `$`,
    /// an address, a comma and printable text (not `$$`, not binary data before a `$`).
    static func looksLikeSentenceHead(_ head: UnsafeBufferPointer<UInt8>) -> Bool {
        guard head.count >= 7, head.count < 512, head[0] == 0x24 else { return false }
        for i in 1..<6 {
            let c = head[i]
            guard (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) else { return false }
        }
        return head.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// Counts bytes the caller dropped before reaching a sentence (the framer's junk).
    public mutating func countJunk(bytes: Int) {
        statistics.junkBytes += bytes
    }

    /// Counts a line the caller could not pass on whole (e.g. cut by the framer as too long):
    /// a sentence cut short must not be read as one without a checksum.
    public mutating func skip(lineWith problem: NMEASentence.Problem) {
        statistics.lines += 1
        collisionHead.removeAll(keepingCapacity: true)
        count(problem)
    }

    /// Decodes one line given as text (allocates; for tools and tests).
    public mutating func feed(line: Substring) -> Output {
        let bytes = Array(line.utf8)
        var fixes: [Fix] = []
        let problem = bytes.withUnsafeBufferPointer { buffer in
            feed(line: buffer) { fixes.append($0) }
        }
        return Output(fixes: fixes, problem: problem)
    }

    /// Completes the last epoch and any held back; calls `emit` with each.
    public mutating func finish(_ emit: (Fix) throws -> Void) rethrows {
        try closeEpoch(emit)
        for fix in held { try deliver(fix, emit) }
        held.removeAll()
        try flushReorder(emit)
    }

    /// Completes the last epoch (the allocating convenience API).
    public mutating func finish() -> [Fix] {
        var fixes: [Fix] = []
        finish { fixes.append($0) }
        return fixes
    }

    mutating func count(_ problem: NMEASentence.Problem) {
        statistics.problemCounts[problem.index] += 1
        if problem.isBad { statistics.linesBad += 1 } else { statistics.skipped += 1 }
    }

    /// The line completes the held head of a cut sentence when head + line is a sentence with a
    /// good checksum; then that sentence is decoded. Nil when it is not.
    private mutating func joinCollision(_ line: UnsafeBufferPointer<UInt8>, _ emit: (Fix) throws -> Void) rethrows
        -> (problem: NMEASentence.Problem?, Void)? {
        var joined = collisionHead
        joined.append(contentsOf: line)
        return try joined.withUnsafeBufferPointer { buffer in
            try NMEAFields.withFields(of: buffer) { scan -> (problem: NMEASentence.Problem?, Void)? in
                guard case .success(let fields) = scan, fields.junkBefore == nil, fields.hasChecksum else { return nil }
                collisionHead.removeAll(keepingCapacity: true)
                return (try decode(fields, emit), ())
            }
        }
    }

    // MARK: Sentences

    private mutating func decode(_ s: NMEAFields, _ emit: (Fix) throws -> Void) rethrows -> NMEASentence.Problem? {
        statistics.sentences += 1
        let address = s[0]
        var isGSA = false
        defer { if !isGSA { lastGSATalker = 0 } }
        if s.encapsulated {
            count(.ais)
            return .ais
        }
        if address[0] == 0x50 { // 'P': proprietary
            if address.count == 5, address[1] == 0x47, address[2] == 0x52, address[3] == 0x4D, address[4] == 0x5A {
                decodePGRMZ(s) // Garmin altitude, which gpsd uses
                return nil
            }
            count(.proprietary)
            return .proprietary
        }
        guard address.count == 5 else {
            count(.unsupported)
            return .unsupported
        }
        let type = UInt32(address[2]) << 16 | UInt32(address[3]) << 8 | UInt32(address[4])
        isGSA = type == Self.tag("GSA")
        let talker = address[1]
        var problem: NMEASentence.Problem?
        var timedTag = 0
        defer { afterSentence(tag: timedTag) }
        switch type {
        case Self.tag("GGA"): timedTag = 1
        case Self.tag("RMC"): timedTag = 2
        case Self.tag("GLL"): timedTag = 3
        case Self.tag("GNS"): timedTag = 4
        case Self.tag("GBS"): timedTag = 5
        default: break
        }
        sentenceTag = timedTag
        switch type {
        case Self.tag("GGA"): problem = try decodeGGA(s, talker: talker, emit)
        case Self.tag("RMC"): problem = try decodeRMC(s, emit)
        case Self.tag("GSA"): problem = decodeGSA(s, talker: talker)
        case Self.tag("VTG"): problem = decodeVTG(s)
        case Self.tag("GSV"): problem = decodeGSV(s)
        case Self.tag("GLL"): problem = try decodeGLL(s, emit)
        case Self.tag("GNS"): problem = try decodeGNS(s, emit)
        case Self.tag("GST"): problem = decodeGST(s)
        case Self.tag("ZDA"): problem = try decodeZDA(s, emit)
        case Self.tag("GBS"): problem = try decodeGBS(s, emit)
        default:
            count(.unsupported)
            return .unsupported
        }
        if let problem {
            statistics.sentences -= 1
            count(problem)
        }
        return problem
    }

    static func tag(_ name: StaticString) -> UInt32 {
        let p = name.utf8Start
        return UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2])
    }
}
