import RunWalkCore

/// What the history page shows, gathered from the store by the caller (the renderer is pure).
public struct HistoryPageInput: Sendable {
    /// One recorded session.
    public struct Session: Sendable, Equatable {
        /// The session's number in the store.
        public var id: Int64
        /// When it started.
        public var date: UTCTime
        /// The workout spec.
        public var workout: String
        /// Given with `runwalk session rename`.
        public var name: String?
        /// Given with `runwalk session note`.
        public var note: String?
        /// Distance, metres.
        public var distanceMetres: Double?
        /// Workout time, seconds.
        public var durationSeconds: Double?
        /// Average pace, seconds per km.
        public var paceSecondsPerKm: Double?
        /// How the session ended (history lists closed sessions).
        public var state: StoredSessionState
        /// "Couch to 5K, week 2, day 1" when the session was a plan day.
        public var planDay: String?

        public init(id: Int64, date: UTCTime, workout: String, name: String? = nil, note: String? = nil,
                    distanceMetres: Double?, durationSeconds: Double?, paceSecondsPerKm: Double?, state: StoredSessionState,
                    planDay: String? = nil) {
            self.id = id
            self.date = date
            self.workout = workout
            self.name = name
            self.note = note
            self.distanceMetres = distanceMetres
            self.durationSeconds = durationSeconds
            self.paceSecondsPerKm = paceSecondsPerKm
            self.state = state
            self.planDay = planDay
        }
    }

    /// A personal record and the session holding it.
    public struct Record: Sendable, Equatable {
        /// "fastest 1 km", …
        public var name: String
        /// As shown: `5:12` or `3.88 km`.
        public var value: String
        /// More about it: `(30:00)`.
        public var detail: String
        /// The session holding it.
        public var sessionID: Int64
        /// When that session started.
        public var date: UTCTime

        public init(name: String, value: String, detail: String = "", sessionID: Int64, date: UTCTime) {
            self.name = name
            self.value = value
            self.detail = detail
            self.sessionID = sessionID
            self.date = date
        }
    }

    /// Every session, newest first.
    public var sessions: [Session]
    /// Records in display order (a missing record is simply absent).
    public var records: [Record]
    /// Runs by day and plan days due.
    public var calendar: TrainingCalendar
    /// Today (UTC), for streaks and what is due.
    public var today: CalendarDay
    /// "Couch to 5K: next week 2, day 1 on Wed 2026-11-11" when a plan is followed.
    public var planLine: String?
    /// Distances and paces in km or miles (the runner's `units` setting).
    public var units: Units

    public init(sessions: [Session], records: [Record], calendar: TrainingCalendar, today: CalendarDay, planLine: String? = nil,
                units: Units = .metric) {
        self.units = units
        self.sessions = sessions
        self.records = records
        self.calendar = calendar
        self.today = today
        self.planLine = planLine
    }

    /// The file name `runwalk report ID --format html -o` is asked to write for the page's links.
    public static func reportFileName(_ id: Int64) -> String { "session-\(id).html" }
}
