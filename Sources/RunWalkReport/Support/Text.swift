/// Number, time and markup formatting shared by the renderers (no Foundation: the
/// renderers are pure and must produce the same bytes everywhere).
public enum Text {
    /// `value` with exactly `digits` decimals, rounded half away from zero: `fixed(3.14159, 2)` is `"3.14"`.
    public static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "0" }
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * Double(scale)).rounded()
        guard scaled < 9.0e18 else { return String(value) }
        let n = Int64(scaled)
        let whole = n / scale, frac = n % scale
        let sign = value < 0 && n != 0 ? "-" : ""
        guard digits > 0 else { return sign + String(whole) }
        let fracText = String(frac)
        return sign + String(whole) + "." + String(repeating: "0", count: digits - fracText.count) + fracText
    }

    /// Like `fixed`, without trailing zeros (and without the point when whole): `compact(2.50, 3)` is `"2.5"`.
    public static func compact(_ value: Double, _ digits: Int) -> String {
        var text = fixed(value, digits)
        guard text.contains(".") else { return text }
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// `0`-padded integer: `padded(7, 2)` is `"07"`.
    public static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// Escapes text for XML and HTML content and attribute values.
    public static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                // Control characters other than tab and newline are not allowed in XML 1.0.
                if scalar.value < 0x20, scalar != "\t", scalar != "\n" { out += "\u{FFFD}" } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
