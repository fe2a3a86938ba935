#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// printf-style number formatting (`%.2f`, `%02ld`) in the C locale, as Foundation's
/// `String(format:)` gave it: the summary, status lines, reports and exports are compared byte
/// for byte, and the C library's rounding of `%.Nf` is what they were written with.
public enum CFormat {
    /// The C locale for numbers, whatever the process's locale is: a GTK front end sets the
    /// user's (a German one writes "3,50"), and our output keeps the decimal point.
    nonisolated(unsafe) private static let cLocale = newlocale(LC_NUMERIC_MASK, "C", nil)

    /// `format` with `arguments`, as C's `snprintf` writes them in the C locale.
    public static func string(_ format: String, _ arguments: CVarArg...) -> String {
        let saved = cLocale.map { uselocale($0) }
        defer { if let saved { uselocale(saved) } }
        var buffer = [CChar](repeating: 0, count: 64)
        let needed = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
        guard needed >= 0 else { return "" }
        if Int(needed) >= buffer.count {
            // Longer than the first guess: once more with room for all of it (a va_list is read once).
            buffer = [CChar](repeating: 0, count: Int(needed) + 1)
            _ = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
        }
        return String(decoding: buffer.prefix(Int(needed)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
