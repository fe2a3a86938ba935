import Testing
import RunWalkGPS

@Suite("GPSSourceSpec")
struct GPSSourceSpecTests {
    @Test("--gps values name their source", arguments: [
        ("gpsd", GPSSourceSpec.gpsd(host: "localhost", port: "2947")),
        ("gpsd://", .gpsd(host: "localhost", port: "2947")),
        ("gpsd://10.0.0.2", .gpsd(host: "10.0.0.2", port: "2947")),
        ("gpsd://127.0.0.1:40001", .gpsd(host: "127.0.0.1", port: "40001")),
        ("gpsd://[::1]:40002", .gpsd(host: "::1", port: "40002")),
        ("serial:/dev/ttyUSB0", .serial(path: "/dev/ttyUSB0", baud: 9600)),
        ("serial:/dev/ttyACM0@115200", .serial(path: "/dev/ttyACM0", baud: 115_200)),
        ("file:SampleTracks/demo-short.nmea", .file(path: "SampleTracks/demo-short.nmea")),
    ])
    func parses(text: String, expected: GPSSourceSpec) throws {
        #expect(try GPSSourceSpec(parsing: text) == expected)
    }

    @Test("bad --gps values say what is wrong", arguments: [
        ("gps", "--gps gps: unknown source; expected gpsd[://HOST:PORT], serial:DEVICE[@BAUD] or file:TRACK"),
        ("gpsd://host:99999", "--gps gpsd://host:99999: port \"99999\" is not a number from 1 to 65535"),
        ("serial:/dev/ttyUSB0@9601", "--gps serial:/dev/ttyUSB0@9601: baud rate \"9601\" is not one of 1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600"),
        ("file:", "--gps file:: no file; expected gpsd[://HOST:PORT], serial:DEVICE[@BAUD] or file:TRACK"),
    ])
    func rejects(text: String, message: String) {
        #expect(throws: GPSSourceSpec.ParseError(description: message)) { try GPSSourceSpec(parsing: text) }
    }
}
