/// How many times real time a session's clock may run (`--speed` of `run`, `replay` and the
/// app): bounded, so every duration the clock scales stays finite and representable.
public enum ClockSpeed {
    /// The speeds allowed.
    public static let range: ClosedRange<Double> = 0.01...10_000

    /// Why `text` is not an allowed speed (nil when it is one), for `--speed`.
    public static func problem(_ text: String) -> String? {
        if let speed = Double(text), range.contains(speed) { return nil }
        return "--speed must be a number from 0.01 to 10000, not \(text)"
    }
}
