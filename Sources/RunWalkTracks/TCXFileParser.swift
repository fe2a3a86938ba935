import RunWalkCore

/// Reads TCX (Garmin Training Center) as a stream: each `Trackpoint` with a `Time` and a
/// `Position` becomes a point. `DistanceMeters` is ignored (the distance is RunWalk's own);
/// the `TPX` extension's `Speed` is the file's speed. A trackpoint without a position (watches
/// write them at pauses) breaks the segment; lap and `Track` boundaries do not (Garmin
/// starts a new `Track` in every lap, one second after the last point of the one before).
/// Several activities (or courses): all by default, in file order, each a new segment;
/// `activity` (1-based) reads one.
struct TCXFileParser {
    let path: String
    /// The activity or course to read (1-based), nil for all.
    let activity: Int?

    private struct Open {
        var line: Int
        var latitude: Double?
        var longitude: Double?
        var altitude: Double?
        var time: (time: UTCTime, zoned: Bool)?
        var badTime: String?
        var speed: Double?
        var heartRate: Double?
        var hasPosition = false
    }

    /// Reads the document, handing points to `pipeline`.
    func parse(_ stream: inout XMLStream, into pipeline: inout TrackPointPipeline, _ emit: (Fix) throws -> Void) throws {
        var stack: [String] = []
        var text = ""
        var open: Open?
        var activities = 0, activitiesRead = Set<Int>()
        var breakPending = false
        do {
            while let event = try stream.next() {
                switch event {
                case .start(let name, _, let line):
                    if stack.isEmpty, name != "TrainingCenterDatabase" {
                        throw TrackFileError(path: path, place: "line \(line)", message: "the root element is <\(name)>, not <TrainingCenterDatabase>")
                    }
                    stack.append(name)
                    text = ""
                    switch name {
                    case "Activity", "Course":
                        activities += 1
                        breakPending = true
                    case "Trackpoint": open = Open(line: line)
                    case "Position": open?.hasPosition = true
                    default: break
                    }
                case .text(let piece):
                    if open != nil { text += piece }
                case .end(let name, let line):
                    guard stack.last == name else {
                        throw TrackFileError(path: path, place: "line \(line)", message: "</\(name)> closes <\(stack.last ?? "nothing")>")
                    }
                    stack.removeLast()
                    let value = text.trimmed
                    text = ""
                    guard open != nil else { break }
                    switch name {
                    case "LatitudeDegrees": open?.latitude = Double(value)
                    case "LongitudeDegrees": open?.longitude = Double(value)
                    case "AltitudeMeters": open?.altitude = Double(value).flatMap { $0.isFinite ? $0 : nil }
                    case "Time":
                        if let time = ISO8601Time.parse(value) { open?.time = time } else { open?.badTime = value }
                    case "Value" where stack.last == "HeartRateBpm": open?.heartRate = Double(value)
                    case "Speed": open?.speed = Double(value).flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
                    case "Trackpoint":
                        guard let point = open else { break }
                        open = nil
                        if let activity, activity != activities { break }
                        guard point.hasPosition || point.latitude != nil else {
                            // No position: a pause marker (or an indoor point); what follows is a new segment.
                            breakPending = true
                            pipeline.warnings.add("# trackpoints without a <Position> skipped (pauses, indoor); the segment breaks there",
                                                  at: "line \(point.line)")
                            break
                        }
                        guard let lat = point.latitude, let lon = point.longitude, lat.isFinite, lon.isFinite,
                              abs(lat) <= 90, abs(lon) <= 180 else {
                            breakPending = true
                            pipeline.warnings.add("# trackpoints skipped: position missing a number or out of range; the segment breaks there",
                                                  at: "line \(point.line)")
                            break
                        }
                        guard let time = point.time else {
                            pipeline.warnings.add(point.badTime == nil ? "# trackpoints skipped: no <Time>" : "# trackpoints skipped: <Time> is not an ISO 8601 date-time",
                                                  at: "line \(point.line)" + (point.badTime.map { ": \"\($0)\"" } ?? ""))
                            break
                        }
                        if !time.zoned { pipeline.warnings.add("# times without a zone read as UTC", at: "line \(point.line)") }
                        activitiesRead.insert(activities)
                        try pipeline.add(TrackFilePoint(latitude: lat, longitude: lon, time: time.time, altitude: point.altitude,
                                                        speed: point.speed, hdop: nil, startsSegment: breakPending,
                                                        place: "line \(point.line)", heartRate: point.heartRate), emit)
                        breakPending = false
                    default: break
                    }
                }
            }
        } catch let failure as XMLStream.Failure {
            throw TrackFileError(path: path, place: "line \(failure.line)", message: failure.message)
        }
        if let open = stack.last {
            pipeline.warnings.add("the file ends inside <\(open)> (truncated?); the points before line \(stream.line) were read")
        }
        if let activity, activity > activities {
            throw TrackFileError(path: path, message: "--track \(activity), but the file has \(activities) activities")
        }
        if activity == nil, activities > 1 {
            let read = activitiesRead.sorted().map(String.init).joined(separator: ", ")
            pipeline.warnings.add("the file has \(activities) activities; read \(read.isEmpty ? "none" : read) in file order, each a new segment (no distance across the gaps between them); --track N reads one")
        }
    }
}
