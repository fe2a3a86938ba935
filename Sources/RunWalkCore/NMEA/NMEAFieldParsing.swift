#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Field decoders working on a field's bytes: no strings, no allocation.
///
/// Each returns nil for an empty or malformed field, so a bad field never becomes a value.
enum NMEAField {
    /// 10^k for k in 0...22: every one is a Double exactly, so `mantissa / 10^k` is the
    /// correctly rounded value, the same as `strtod` gives.
    @inline(__always)
    private static func exactPowerOfTen(_ k: Int) -> Double {
        switch k {
        case 0: return 1e0
        case 1: return 1e1
        case 2: return 1e2
        case 3: return 1e3
        case 4: return 1e4
        case 5: return 1e5
        case 6: return 1e6
        case 7: return 1e7
        case 8: return 1e8
        case 9: return 1e9
        case 10: return 1e10
        case 11: return 1e11
        case 12: return 1e12
        case 13: return 1e13
        case 14: return 1e14
        case 15: return 1e15
        case 16: return 1e16
        case 17: return 1e17
        case 18: return 1e18
        case 19: return 1e19
        case 20: return 1e20
        case 21: return 1e21
        default: return 1e22
        }
    }

    /// A decimal number: optional sign, digits, optional fraction (`-12.345`, `.5`, `7.`).
    static func decimal(_ f: UnsafeBufferPointer<UInt8>) -> Double? {
        guard let p = f.baseAddress, !f.isEmpty else { return nil }
        let n = f.count
        var i = 0
        let negative = p[0] == 0x2D
        if negative || p[0] == 0x2B { i = 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var seenPoint = false
        while i < n {
            let d = p[i] &- 0x30
            if d < 10 {
                mantissa = mantissa &* 10 &+ UInt64(d)
                digits += 1
                if seenPoint { fractionDigits += 1 }
            } else if p[i] == 0x2E, !seenPoint {
                seenPoint = true
            } else {
                return nil
            }
            i += 1
        }
        guard digits > 0 else { return nil }
        var value: Double
        if digits <= 19, mantissa < 1 << 53, fractionDigits <= 22 {
            value = Double(mantissa) / exactPowerOfTen(fractionDigits)
        } else {
            // Beyond what the fast path does exactly (never in real logs): let the library round.
            guard let slow = Double(String(decoding: UnsafeBufferPointer(start: p + (negative || p[0] == 0x2B ? 1 : 0),
                                                                          count: n - (negative || p[0] == 0x2B ? 1 : 0)),
                                           as: UTF8.self)) else { return nil }
            value = slow
        }
        if negative { value = -value }
        return value.isFinite ? value : nil
    }

    /// A non-negative integer (`08`); nil for anything else.
    static func integer(_ f: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !f.isEmpty, f.count <= 9 else { return nil }
        var value = 0
        for c in f {
            guard c >= 0x30 && c <= 0x39 else { return nil }
            value = value * 10 + Int(c - 0x30)
        }
        return value
    }

    /// The leading integer of a field, as C's `atoi` reads it (0 when none).
    static func leadingInteger(_ f: UnsafeBufferPointer<UInt8>) -> Int {
        var value = 0
        var negative = false
        var i = 0
        if let c = f.first, c == 0x2D || c == 0x2B { negative = c == 0x2D; i = 1 }
        while i < f.count, i < 10, f[i] >= 0x30 && f[i] <= 0x39 {
            value = value * 10 + Int(f[i] - 0x30)
            i += 1
        }
        return negative ? -value : value
    }

    /// `hhmmss` with an optional fraction → milliseconds into the day (fraction beyond
    /// milliseconds is cut, as gpsd prints it).
    static func timeOfDay(_ f: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard let p = f.baseAddress, f.count >= 6 else { return nil }
        for i in 0..<6 where !(p[i] >= 0x30 && p[i] <= 0x39) { return nil }
        let hours = Int64(p[0] - 0x30) * 10 + Int64(p[1] - 0x30)
        let minutes = Int64(p[2] - 0x30) * 10 + Int64(p[3] - 0x30)
        let seconds = Int64(p[4] - 0x30) * 10 + Int64(p[5] - 0x30)
        guard hours < 24, minutes < 60, seconds <= 60 else { return nil }
        var millis: Int64 = 0
        if f.count > 6 {
            guard p[6] == 0x2E else { return nil }
            var scale: Int64 = 100
            for i in 7..<f.count {
                let c = p[i]
                guard c >= 0x30 && c <= 0x39 else { return nil }
                millis += Int64(c - 0x30) * scale
                scale /= 10
            }
        }
        return ((hours * 60 + minutes) * 60 + seconds) * 1000 + millis
    }

    /// `ddmmyy` → days since 1970-01-01. Two-digit years are 2000–2079, else 1980–1999
    /// (gpsd's century and its wrap at 2080).
    static func dayNumber(ddmmyy f: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard f.count == 6, let value = integer(f) else { return nil }
        let day = value / 10000, month = value / 100 % 100, yy = value % 100
        guard (1...31).contains(day), (1...12).contains(month) else { return nil }
        var year = 2000 + yy
        if year >= 2080 { year -= 100 }
        return Int64(UTCTime.daysFromCivil(year: year, month: month, day: day))
    }

    /// `ddmm.mmmm` / `dddmm.mmmm` with its hemisphere → signed degrees, computed the way
    /// gpsd does (degrees from the hundreds, then minutes / 60), and range-checked.
    static func coordinate(_ f: UnsafeBufferPointer<UInt8>, hemisphere h: UnsafeBufferPointer<UInt8>,
                           limit: Double) -> Double? {
        guard let hemisphere = h.first, let raw = decimal(f), raw >= 0 else { return nil }
        let degrees = (raw / 100).rounded(.towardZero)
        let minutes = 100 * (raw / 100 - degrees)
        guard minutes < 60 else { return nil }
        var value = degrees + minutes / 60
        switch hemisphere {
        case 0x4E, 0x45: break // N, E
        case 0x53, 0x57: value = -value // S, W
        default: return nil
        }
        guard value.isFinite, abs(value) <= limit else { return nil }
        return value
    }
}
