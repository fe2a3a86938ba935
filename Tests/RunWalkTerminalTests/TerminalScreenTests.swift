import Testing
@testable import RunWalkTerminal
import RunWalkCore
import RunWalkRuntime

/// Finds `glyph` (rows of block digits) drawn on consecutive lines of `frame`.
func containsBlock(_ frame: [String], _ glyph: [String]) -> Bool {
    guard let first = glyph.first, glyph.count <= frame.count else { return false }
    for top in 0...(frame.count - glyph.count) {
        guard let range = frame[top].range(of: first) else { continue }
        let column = frame[top].distance(from: frame[top].startIndex, to: range.lowerBound)
        let matches = glyph.indices.allSatisfy { offset in
            let line = Array(frame[top + offset])
            let row = Array(glyph[offset])
            return line.count >= column + row.count && Array(line[column..<(column + row.count)]) == row
        }
        if matches { return true }
    }
    return false
}

/// Whether `frame` shows `text` in block digits at some scale.
func showsBigText(_ frame: [String], _ text: String) -> Bool {
    for width in 1...12 {
        for height in 1...18 where containsBlock(frame, BlockFont.render(text, width: width, height: height)) { return true }
    }
    return false
}

/// Removes ANSI SGR sequences.
func stripSGR(_ text: String) -> String {
    var out = "", inEscape = false
    for character in text {
        if inEscape { if character == "m" { inEscape = false }; continue }
        if character == "\u{1B}" { inEscape = true; continue }
        out.append(character)
    }
    return out
}

@Suite struct TerminalScreenTests {
    // Every 8th width and 4th height plus the edges where the layout changes (44 and 60 columns).
    static let columns = Array(stride(from: 40, through: 200, by: 8)) + [41, 43, 44, 45, 59, 60, 61, 79, 81, 199]
    static let rows = Array(stride(from: 20, through: 60, by: 4)) + [21, 23, 25, 59]

    /// The facts a runner must find on the screen of each sample, at any size.
    static func facts(_ name: String) -> [String] {
        switch name {
        case "running": ["RUN 3/18", "Next: walk 1:00", "Distance 1.23 km", "Pace 6:05 /km", "Avg 6:20 /km"]
        case "running-imperial": ["RUN 3/18", "Distance 0.77 mi", "Pace 9:47 /mi"]
        case "paused": ["PAUSED · RUN 3/18", "PAUSED — space to resume", "Next: walk 1:00"]
        case "auto-paused": ["AUTO-PAUSED · RUN 3/18", "AUTO-PAUSED — moving resumes"]
        case "gps-lost": ["RUN 3/18", "GPS lost for 0:12", "Pace --:-- /km"]
        case "distance": ["RUN 2/18", "metres left in run", "Next: walk 200 m"]
        case "waiting": ["WAITING FOR GPS", "waiting for GPS fix", "press s to start now", "No GPS fix for 0:23"]
        case "countdown": ["GET READY", "starting in 3"]
        case "completed": ["WORKOUT COMPLETE", "Distance 5.21 km", "Avg pace 6:24 /km"]
        case "stopped": ["WORKOUT STOPPED", "Distance 5.21 km"]
        case "long": ["WARM-UP 1/18", "Next: walk 1:00"]
        default: []
        }
    }

    @Test("every sample fits every size from 40×20 to 200×60 and shows its key facts",
          arguments: SampleStatuses.all.map(\.name))
    func grid(name: String) throws {
        let status = try #require(SampleStatuses.all.first { $0.name == name }?.status)
        for columns in Self.columns {
            for rows in Self.rows {
                // The stop question takes a line: checked where lines are short (the fewest rows) and at the top.
                for overlay in rows <= 21 || rows == 60 ? [TerminalOverlay.none, .confirmStop] : [.none] {
                    let lines = TerminalScreen.lines(status: status, columns: columns, rows: rows, overlay: overlay)
                    #expect(lines.count == rows, "\(name) \(columns)×\(rows): \(lines.count) lines")
                    let plain = lines.map(\.plain)
                    for (index, line) in plain.enumerated() where line.count > columns {
                        Issue.record("\(name) \(columns)×\(rows) line \(index) is \(line.count) wide: \(line)")
                    }
                    let text = plain.joined(separator: "\n")
                    for fact in Self.facts(name) where !text.contains(fact) {
                        Issue.record("\(name) \(columns)×\(rows) \(overlay): no \"\(fact)\"\n\(text)")
                    }
                    if overlay == .confirmStop {
                        #expect(text.contains("ress q again"), "\(name) \(columns)×\(rows): no stop question")
                    }
                    if name != "waiting" {
                        #expect(text.contains("█"), "\(name) \(columns)×\(rows): no big digits")
                    }
                }
            }
        }
    }

    @Test("the time left is in big digits, the same with and without colour",
          arguments: [(40, 20), (80, 24), (200, 60)])
    func bigTime(columns: Int, rows: Int) {
        let status = SampleStatuses.running()
        let plain = TerminalScreen.render(status: status, columns: columns, rows: rows, colour: false)
        let coloured = TerminalScreen.render(status: status, columns: columns, rows: rows, colour: true)
        #expect(showsBigText(plain, "0:47"), "\(columns)×\(rows)\n\(plain.joined(separator: "\n"))")
        #expect(coloured.map(stripSGR) == plain)
        #expect(coloured.joined().contains("\u{1B}["), "colour on but no SGR")
        #expect(!plain.joined().contains("\u{1B}"), "colour off but escape sequences")
        #expect(showsBigText(TerminalScreen.render(status: SampleStatuses.distancePhase(), columns: columns, rows: rows, colour: false), "312"))
        #expect(showsBigText(TerminalScreen.render(status: SampleStatuses.countdown(2), columns: columns, rows: rows, colour: false), "2"))
        #expect(showsBigText(TerminalScreen.render(status: SampleStatuses.finished(), columns: columns, rows: rows, colour: false), "33:20"))
    }

    @Test func biggerScreenBiggerDigits() {
        func digitRows(_ columns: Int, _ rows: Int) -> Int {
            TerminalScreen.lines(status: SampleStatuses.running(), columns: columns, rows: rows).filter { $0.plain.contains("█") && !$0.plain.contains("Phase") && !$0.plain.contains("Total") }.count
        }
        #expect(digitRows(40, 20) >= 8, "arm's length on 40×20 wants at least 8 rows of digits")
        #expect(digitRows(80, 24) >= digitRows(40, 20))
        #expect(digitRows(200, 60) > digitRows(80, 24))
    }

    @Test func pausedIsProminentAndTheRunIsColoured() {
        let paused = TerminalScreen.render(status: SampleStatuses.paused(), columns: 40, rows: 20, colour: true)
        #expect(paused[0].contains("\u{1B}[0;1;30;43m"), "header bar in yellow: \(paused[0])")
        #expect(stripSGR(paused[0]).contains("PAUSED"))
        let running = TerminalScreen.render(status: SampleStatuses.running(), columns: 40, rows: 20, colour: true)
        #expect(running[0].contains(";41m"), "run header on red: \(running[0])")
        let walk = SessionStatus(workout: "w", stage: .running, phase: .init(index: 1, kind: .walk, plannedSeconds: 60, plannedMetres: nil),
                                 phaseCount: 2, phaseRemainingSeconds: 30)
        #expect(TerminalScreen.render(status: walk, columns: 40, rows: 20, colour: true)[0].contains(";42m"), "walk header on green")
    }

    @Test func helpOverlayListsTheKeysAndFits() {
        for (columns, rows) in [(40, 20), (80, 24), (200, 60)] {
            let lines = TerminalScreen.lines(status: SampleStatuses.running(), columns: columns, rows: rows, overlay: .help).map(\.plain)
            let text = lines.joined(separator: "\n")
            for key in ["Keys", "pause / resume", "next phase", "restart this phase", "stop the workout", "any key closes"] {
                #expect(text.contains(key), "\(columns)×\(rows): no \(key)")
            }
            #expect(lines.allSatisfy { $0.count <= columns })
        }
    }

    @Test func tinyAndOddSizesNeverOverflow() {
        for columns in [0, 1, 5, 12, 20, 39] {
            for rows in [0, 1, 3, 8, 19] {
                let lines = TerminalScreen.lines(status: SampleStatuses.paused(), columns: columns, rows: rows, overlay: .help)
                #expect(lines.count == rows)
                #expect(lines.allSatisfy { $0.width <= columns }, "\(columns)×\(rows)")
            }
        }
    }

    @Test func noStatusYet() {
        let lines = TerminalScreen.render(status: nil, columns: 40, rows: 20, colour: false)
        #expect(lines.count == 20)
        #expect(lines.joined().contains("starting"))
    }
}

@Suite struct BlockFontTests {
    @Test func digitsAreDistinctAndSized() {
        let digits = (0...9).map { BlockFont.render(String($0), width: 1, height: 2) }
        #expect(Set(digits.map { $0.joined(separator: "\n") }).count == 10)
        for digit in digits {
            #expect(digit.count == 5)
            #expect(digit.allSatisfy { $0.count == 3 })
        }
        #expect(BlockFont.render("8", width: 1, height: 2) == ["███", "█ █", "███", "█ █", "███"])
        #expect(BlockFont.render("1", width: 1, height: 1) == ["▄█ ", " █ ", "▀▀▀"])
    }

    @Test func scaleFitsTheBox() throws {
        let scale = try #require(BlockFont.bestScale(for: "12:34", columns: 40, rows: 11))
        #expect(BlockFont.columns("12:34", width: scale.width) <= 40)
        #expect(BlockFont.rows(height: scale.height) <= 11)
        #expect(scale.width == 2)
        #expect(BlockFont.bestScale(for: "12:34", columns: 10, rows: 11) == nil)
        #expect(BlockFont.columns("1:00", width: 1) == 3 + 1 + 1 + 1 + 3 + 1 + 3)
    }
}

@Suite struct ScreenTextTests {
    @Test(arguments: [(89.3, "1:30"), (0, "0:00"), (0.2, "0:01"), (3600, "1:00:00"), (3725, "1:02:05"), (-4, "0:00")])
    func countdown(seconds: Double, expected: String) { #expect(ScreenText.countdown(seconds) == expected) }

    @Test func paceAndDistanceInUnits() {
        #expect(ScreenText.pace(365, units: .metric) == "6:05")
        #expect(ScreenText.pace(365, units: .imperial) == "9:47")
        #expect(ScreenText.pace(nil, units: .metric) == "--:--")
        #expect(ScreenText.pace(.infinity, units: .metric) == "--:--")
        #expect(ScreenText.distance(1234.5, units: .metric) == "1.23 km")
        #expect(ScreenText.distance(1609.344, units: .imperial) == "1.00 mi")
    }

    @Test func gpsStates() {
        // The one wording (GPSStateText), as the control line and the app show it too.
        #expect(SessionStatus.GPS(state: .fix, accuracyMetres: 4.4, satellites: 9).text == "GPS fix ±4 m, 9 sats")
        #expect(SessionStatus.GPS(state: .lost, lostForSeconds: 72).text == "GPS lost for 1:12")
        #expect(SessionStatus.GPS(state: .noFix).text == "No GPS fix yet")
        #expect(SessionStatus.GPS(state: .noFix, problem: "gpsd has no receiver").text == "GPS: gpsd has no receiver")
        #expect(SessionStatus.GPS(state: .fix, satellites: 9, problem: "stale").text == "GPS fix 9 sats", "a fix outranks a stale problem")
    }
}
