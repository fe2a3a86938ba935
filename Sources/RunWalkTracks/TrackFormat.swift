/// The kinds of track file RunWalk reads, told apart by their content.
public enum TrackFormat: String, Sendable, Equatable {
    /// NMEA 0183 sentences, one per line (anything that is not one of the others).
    case nmea = "NMEA"
    /// GPX 1.0 or 1.1 (root element `gpx`).
    case gpx = "GPX"
    /// Garmin Training Center XML (root element `TrainingCenterDatabase`).
    case tcx = "TCX"
    /// A FIT binary file (header with `.FIT`).
    case fit = "FIT"

    /// The format of a file that starts with `head` (already decompressed): FIT by its header's
    /// `.FIT` signature, GPX and TCX by their XML root element, anything else NMEA.
    public static func detect(_ head: UnsafeRawBufferPointer) -> TrackFormat {
        let bytes = head.bindMemory(to: UInt8.self)
        if bytes.count >= 12, bytes[0] == 12 || bytes[0] == 14,
           bytes[8] == 0x2E, bytes[9] == 0x46, bytes[10] == 0x49, bytes[11] == 0x54 {
            return .fit
        }
        guard let root = rootElement(bytes) else { return .nmea }
        if root.name == "gpx" { return .gpx }
        if root.name == "TrainingCenterDatabase" { return .tcx }
        return .nmea
    }

    /// Whether `head` already shows text that is neither XML nor FIT (its first character, after
    /// white space, is not `<`, nor a FIT header's size byte): NMEA, known without reading more.
    static func isPlainText(_ head: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = head.first(where: { !($0 == 32 || $0 == 9 || $0 == 10 || $0 == 13) }) else { return false }
        return first != 60 && first != 12 && first != 14 && first != 0xEF
    }

    /// The name of the first element of an XML document (after a BOM, the declaration,
    /// comments and a DOCTYPE), prefix removed, and its line; nil when the bytes do not start as XML.
    static func rootElement(_ bytes: UnsafeBufferPointer<UInt8>) -> (name: String, line: Int)? {
        var i = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        while i < bytes.count {
            let b = bytes[i]
            if b == 32 || b == 9 || b == 10 || b == 13 { i += 1; continue }
            guard b == 60, i + 1 < bytes.count else { return nil }  // '<'
            let next = bytes[i + 1]
            if next == 63 || next == 33 {  // '<?' or '<!': skip to the matching '>'
                let isComment = i + 3 < bytes.count && bytes[i + 2] == 45 && bytes[i + 3] == 45
                var j = i + 2
                while j < bytes.count {
                    if bytes[j] == 62, !isComment || (bytes[j - 1] == 45 && bytes[j - 2] == 45) { break }
                    j += 1
                }
                i = j + 1
                continue
            }
            var j = i + 1
            while j < bytes.count, !(bytes[j] == 32 || bytes[j] == 9 || bytes[j] == 10 || bytes[j] == 13 || bytes[j] == 62 || bytes[j] == 47) {
                j += 1
            }
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[(i + 1)..<j]), as: UTF8.self)
            let line = 1 + bytes[0..<i].filter { $0 == 10 }.count
            return name.split(separator: ":").last.map { (String($0), line) }
        }
        return nil
    }
}
