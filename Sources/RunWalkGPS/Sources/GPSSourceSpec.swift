import RunWalkCore
import RunWalkRuntime

/// The `--gps` argument: `gpsd[://HOST[:PORT]]`, `serial:DEVICE[@BAUD]` or `file:TRACK`.
public enum GPSSourceSpec: Sendable, Equatable {
    case gpsd(host: String, port: String)
    case serial(path: String, baud: Int)
    case file(path: String)

    /// Why a `--gps` value was not understood.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// Parses a `--gps` value.
    public init(parsing text: String) throws(ParseError) {
        let usage = "expected gpsd[://HOST:PORT], serial:DEVICE[@BAUD] or file:TRACK"
        if text == "gpsd" {
            self = .gpsd(host: GPSDSource.defaultHost, port: GPSDSource.defaultPort)
        } else if text.hasPrefix("gpsd://") {
            let address = text.dropFirst("gpsd://".count)
            var host = Substring(GPSDSource.defaultHost), port = Substring(GPSDSource.defaultPort)
            if address.hasPrefix("[") {
                // [IPv6]:port
                guard let close = address.firstIndex(of: "]") else {
                    throw ParseError(description: "--gps \(UserText.printable(text)): missing \"]\" after the IPv6 address")
                }
                host = address[address.index(after: address.startIndex)..<close]
                let rest = address[address.index(after: close)...]
                if rest.hasPrefix(":") { port = rest.dropFirst() } else if !rest.isEmpty {
                    throw ParseError(description: "--gps \(UserText.printable(text)): unexpected \"\(UserText.printable(rest))\" after the address; \(usage)")
                }
            } else if let colon = address.lastIndex(of: ":") {
                host = address[..<colon]
                port = address[address.index(after: colon)...]
            } else if !address.isEmpty {
                host = address
            }
            if host.isEmpty { host = Substring(GPSDSource.defaultHost) }
            guard let number = Int(port), (1...65535).contains(number) else {
                throw ParseError(description: "--gps \(UserText.printable(text)): port \"\(UserText.printable(port))\" is not a number from 1 to 65535")
            }
            self = .gpsd(host: String(host), port: String(number))
        } else if text.hasPrefix("serial:") {
            let rest = text.dropFirst("serial:".count)
            var path = rest, baud = 9600
            if let at = rest.lastIndex(of: "@") {
                path = rest[..<at]
                let value = rest[rest.index(after: at)...]
                guard let number = Int(value), SerialPort.speed(baud: number) != nil else {
                    throw ParseError(description: "--gps \(UserText.printable(text)): baud rate \"\(UserText.printable(value))\" is not one of 1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600")
                }
                baud = number
            }
            guard !path.isEmpty else { throw ParseError(description: "--gps \(UserText.printable(text)): no device; \(usage)") }
            self = .serial(path: String(path), baud: baud)
        } else if text.hasPrefix("file:") {
            let path = text.dropFirst("file:".count)
            guard !path.isEmpty else { throw ParseError(description: "--gps \(UserText.printable(text)): no file; \(usage)") }
            self = .file(path: String(path))
        } else {
            throw ParseError(description: "--gps \(UserText.printable(text)): unknown source; \(usage)")
        }
    }

    /// The source this spec names; `speed` paces a file (nil: as fast as possible).
    public func makeSource(speed: Double?) -> any LocationSource {
        switch self {
        case .gpsd(let host, let port): return GPSDSource(host: host, port: port)
        case .serial(let path, let baud): return SerialSource(path: path, baud: baud)
        case .file(let path): return NMEAFileSource(path: path, speed: speed)
        }
    }
}
