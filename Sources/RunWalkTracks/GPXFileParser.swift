import RunWalkCore

/// Reads GPX 1.0 and 1.1 as a stream: track points (`trk`/`trkseg`/`trkpt`) become points
/// as soon as each closes; routes are used only when the file has no timed track point.
///
/// Several tracks: by default every track with timed points is read, in file order, each
/// starting a new segment (the gap between tracks adds no distance); `track` (1-based) reads
/// only that one. Unusable parts are skipped with one counted warning per cause.
struct GPXFileParser {
    let path: String
    /// The track to read (1-based), nil for all.
    let track: Int?

    private struct Open {
        var latitude: Double?
        var longitude: Double?
        var badAttributes: String?
        var line: Int
        var altitude: Double?
        var time: (time: UTCTime, zoned: Bool)?
        var badTime: String?
        var speed: Double?
        var hdop: Double?
        /// Garmin TrackPointExtension v1/v2 `hr` or GpxExtensions v3 `hr` (both end in a local name `hr`).
        var heartRate: Double?
        /// RunWalk's own export marks the first point after a lost signal that the session bridged.
        var gpsLostBefore = false
    }

    /// What began since the last point read.
    private enum SegmentBreak: Comparable {
        case none
        /// A new <trkseg> or <rte>: a break, unless RunWalk began it at a lost signal (bridged).
        case segment
        /// A new <trk>, or a point skipped: always a break.
        case hard
    }

    /// Reads the document, handing points to `pipeline`.
    func parse(_ stream: inout XMLStream, into pipeline: inout TrackPointPipeline, _ emit: (Fix) throws -> Void) throws {
        var stack: [String] = []
        var text = ""
        var open: Open?
        var tracks = 0, tracksRead = Set<Int>()
        var pendingBreak = SegmentBreak.none
        var routePoints: [TrackFilePoint] = []
        var trackPointsRead = 0
        do {
            while let event = try stream.next() {
                switch event {
                case .start(let name, let attributes, let line):
                    if stack.isEmpty, name != "gpx" {
                        throw TrackFileError(path: path, place: "line \(line)", message: "the root element is <\(name)>, not <gpx>")
                    }
                    stack.append(name)
                    text = ""
                    switch name {
                    case "trk":
                        tracks += 1
                        pendingBreak = .hard
                    case "trkseg", "rte":
                        pendingBreak = max(pendingBreak, .segment)
                    case "trkpt", "rtept", "wpt":
                        var point = Open(line: line)
                        let lat = attributes.first { $0.0 == "lat" }?.1, lon = attributes.first { $0.0 == "lon" }?.1
                        point.latitude = lat.flatMap { Double($0.trimmed) }
                        point.longitude = lon.flatMap { Double($0.trimmed) }
                        if point.latitude == nil || point.longitude == nil { point.badAttributes = "lat=\"\(lat ?? "")\" lon=\"\(lon ?? "")\"" }
                        open = point
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
                    switch name {
                    case "ele" where open != nil:
                        if let metres = Double(value), metres.isFinite { open?.altitude = metres } else {
                            pipeline.warnings.add("# <ele> values that are not numbers ignored", at: "line \(line)")
                        }
                    case "time" where open != nil:
                        if let time = ISO8601Time.parse(value) { open?.time = time } else { open?.badTime = value }
                    case "speed" where open != nil:
                        open?.speed = Double(value).flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
                    case "gpsLostBefore" where open != nil:
                        open?.gpsLostBefore = value == "true"
                    case "hr" where open != nil:
                        if let bpm = Double(value) { open?.heartRate = bpm } else {
                            pipeline.warnings.add("# <hr> values that are not numbers ignored", at: "line \(line)")
                        }
                    case "hdop" where open != nil:
                        open?.hdop = Double(value).flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
                    case "wpt":
                        open = nil
                        pipeline.warnings.add("# waypoints (<wpt>) skipped: they are not part of a track", at: "line \(line)")
                    case "trkpt", "rtept":
                        guard let point = open else { break }
                        open = nil
                        let isTrack = name == "trkpt"
                        if isTrack, let track, track != tracks { break }
                        let kind = isTrack ? "track points" : "route points"
                        guard let lat = point.latitude, let lon = point.longitude else {
                            pipeline.warnings.add("# \(kind) skipped: lat and lon are not numbers", at: "line \(point.line): \(point.badAttributes ?? "")")
                            pendingBreak = .hard
                            break
                        }
                        guard lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180 else {
                            pipeline.warnings.add("# \(kind) skipped: coordinates out of range (pause markers such as lat=100); the segment breaks there",
                                                  at: "line \(point.line)")
                            pendingBreak = .hard
                            break
                        }
                        guard let time = point.time else {
                            if let bad = point.badTime {
                                pipeline.warnings.add("# \(kind) skipped: <time> is not an ISO 8601 date-time", at: "line \(point.line): \"\(bad)\"")
                            } else {
                                pipeline.warnings.add("# \(kind) skipped: no <time> (RunWalk replays a track by its own clock)", at: "line \(point.line)")
                            }
                            break
                        }
                        if !time.zoned { pipeline.warnings.add("# times without a zone read as UTC", at: "line \(point.line)") }
                        // A segment that RunWalk began at a lost signal continues the one before (the
                        // session bridged the gap); a new track or a skipped point still breaks.
                        let startsSegment = pendingBreak == .hard || (pendingBreak == .segment && !point.gpsLostBefore)
                        let entry = TrackFilePoint(latitude: lat, longitude: lon, time: time.time, altitude: point.altitude,
                                                   speed: point.speed, hdop: point.hdop, startsSegment: startsSegment,
                                                   place: "line \(point.line)", heartRate: point.heartRate)
                        pendingBreak = .none
                        if isTrack {
                            trackPointsRead += 1
                            tracksRead.insert(tracks)
                            try pipeline.add(entry, emit)
                        } else {
                            routePoints.append(entry)
                        }
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
        if let track, track > tracks {
            throw TrackFileError(path: path, message: "--track \(track), but the file has \(tracks) track(s)")
        }
        if trackPointsRead == 0 {
            if track == nil {
                for point in routePoints { try pipeline.add(point, emit) }
            }
        } else if !routePoints.isEmpty {
            pipeline.warnings.add("# timed route points (<rte>) skipped: the file's track is read", count: routePoints.count)
        }
        if track == nil, tracks > 1 {
            let read = tracksRead.sorted().map(String.init).joined(separator: ", ")
            pipeline.warnings.add("the file has \(tracks) tracks; read track(s) \(read.isEmpty ? "none" : read) in file order, each a new segment (no distance across the gaps between them); --track N reads one")
        }
    }
}

extension String {
    /// Without leading and trailing white space.
    var trimmed: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
