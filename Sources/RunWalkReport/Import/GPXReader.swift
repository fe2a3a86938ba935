import RunWalkCore

/// A track read from a GPX file: its name and its segments of timed points.
public struct GPXTrack: Sendable, Equatable {
    /// One point: position, elevation, time, and speed when the file gives one.
    public struct Point: Sendable, Equatable {
        /// Degrees north.
        public var latitude: Double
        /// Degrees east.
        public var longitude: Double
        /// `<ele>`, metres.
        public var elevationMetres: Double?
        /// `<time>`.
        public var time: UTCTime
        /// `<speed>` (GPX 1.0 or an extension), metres per second.
        public var speedMetresPerSecond: Double?
        /// Horizontal dilution of precision, when the file gives it.
        public var hdop: Double?
        /// Line of the point's opening tag in the file.
        public var line: Int

        /// A point made elsewhere than in a GPX file (`line` 0): an unsaved session's fixes.
        public init(latitude: Double, longitude: Double, elevationMetres: Double?, time: UTCTime,
                    speedMetresPerSecond: Double?, hdop: Double?, line: Int = 0) {
            self.latitude = latitude
            self.longitude = longitude
            self.elevationMetres = elevationMetres
            self.time = time
            self.speedMetresPerSecond = speedMetresPerSecond
            self.hdop = hdop
            self.line = line
        }
    }

    /// The track's (or the file's) name.
    public var name: String?
    /// Track segments in order, none empty.
    public var segments: [[Point]]

    /// A track from its name and segments.
    public init(name: String?, segments: [[Point]]) {
        self.name = name
        self.segments = segments
    }

    /// All points in order.
    public var points: [Point] { segments.flatMap { $0 } }
}

/// Why a GPX file could not be imported; the description names the line.
public struct GPXImportError: Error, Equatable, CustomStringConvertible {
    /// Line in the file, when the problem has one.
    public var line: Int?
    /// What is wrong.
    public var message: String
    /// `line N: message`.
    public var description: String { line.map { "line \($0): \(message)" } ?? message }
}

/// Reads GPX 1.0 and 1.1 tracks (`trk`/`trkseg`/`trkpt`), or routes (`rte`/`rtept`) when
/// there is no track. Every point needs a time: RunWalk replays tracks by their own clock.
public enum GPXReader {
    /// Parses `text`; throws on malformed XML, a file that is not GPX, a point without a
    /// valid position or time, or a file without timed points.
    public static func parse(_ text: String) throws(GPXImportError) -> GPXTrack {
        var scanner = XMLScanner(text)
        let tokens: [XMLScanner.Token]
        do { tokens = try scanner.tokens() } catch { throw GPXImportError(line: error.line, message: error.message) }
        guard let root = tokens.first(where: { if case .start = $0 { return true } else { return false } }),
              case .start(let rootName, _, let rootLine) = root else {
            throw GPXImportError(line: nil, message: "no XML elements: not a GPX file")
        }
        guard rootName == "gpx" else { throw GPXImportError(line: rootLine, message: "the root element is <\(UserText.printable(rootName))>, not <gpx>") }

        var trackSegments: [[GPXTrack.Point]] = [], routeSegments: [[GPXTrack.Point]] = []
        var name: String?
        var stack: [String] = []
        var current: (lat: Double, lon: Double, line: Int, ele: Double?, time: UTCTime?, speed: Double?, hdop: Double?)?
        var text = ""
        for token in tokens {
            switch token {
            case .start(let element, let attributes, let line):
                stack.append(element)
                text = ""
                switch element {
                case "trkseg": trackSegments.append([])
                case "rte": routeSegments.append([])
                case "trkpt", "rtept":
                    guard let lat = attributes["lat"].flatMap(Double.init), let lon = attributes["lon"].flatMap(Double.init),
                          abs(lat) <= 90, abs(lon) <= 180 else {
                        throw GPXImportError(line: line, message: "<\(UserText.printable(element))> needs lat and lon attributes in degrees (got lat=\"\(UserText.printable(attributes["lat"] ?? ""))\" lon=\"\(UserText.printable(attributes["lon"] ?? ""))\")")
                    }
                    current = (lat, lon, line, nil, nil, nil, nil)
                default: break
                }
            case .text(let content):
                text += content
            case .end(let element, let line):
                let value = text.trimmingWhitespace
                text = ""
                guard stack.last == element else {
                    throw GPXImportError(line: line, message: "</\(UserText.printable(element))> closes <\(UserText.printable(stack.last ?? "nothing"))>")
                }
                stack.removeLast()
                let parent = stack.last
                switch element {
                case "ele" where current != nil:
                    guard let metres = Double(value) else { throw GPXImportError(line: line, message: "<ele> is not a number: \"\(UserText.printable(value))\"") }
                    current?.ele = metres
                case "time" where current != nil:
                    guard let time = ISO8601.parse(value) else {
                        throw GPXImportError(line: line, message: "<time> is not an ISO 8601 date-time: \"\(UserText.printable(value))\"")
                    }
                    current?.time = time
                case "speed" where current != nil:
                    current?.speed = Double(value)
                case "hdop" where current != nil:
                    current?.hdop = Double(value).flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
                case "name" where parent == "trk" || (parent == "metadata" && name == nil) || (parent == "gpx" && name == nil):
                    if !value.isEmpty { name = value }
                case "trkpt", "rtept":
                    guard let point = current else { break }
                    current = nil
                    guard let time = point.time else {
                        throw GPXImportError(line: point.line, message: "<\(UserText.printable(element))> has no <time>; RunWalk replays a track by its own clock")
                    }
                    let entry = GPXTrack.Point(latitude: point.lat, longitude: point.lon, elevationMetres: point.ele, time: time,
                                               speedMetresPerSecond: point.speed, hdop: point.hdop, line: point.line)
                    if element == "trkpt" {
                        if trackSegments.isEmpty { trackSegments.append([]) }
                        trackSegments[trackSegments.count - 1].append(entry)
                    } else {
                        if routeSegments.isEmpty { routeSegments.append([]) }
                        routeSegments[routeSegments.count - 1].append(entry)
                    }
                default: break
                }
            }
        }
        if let open = stack.last { throw GPXImportError(line: nil, message: "the file ends inside <\(UserText.printable(open))>") }
        let segments = (trackSegments.contains { !$0.isEmpty } ? trackSegments : routeSegments).filter { !$0.isEmpty }
        guard !segments.isEmpty else { throw GPXImportError(line: nil, message: "no track or route points") }
        return GPXTrack(name: name, segments: segments)
    }
}

extension String {
    var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
