/// How the live page arranges its two halves (the clock and phase; the numbers and buttons) for
/// the space it has.
public enum LiveLayout {
    /// The two halves' own smallest width side by side, with the page's padding (about 630 px at the
    /// side-by-side type sizes). The threshold sits above it: a window narrowed from side by side
    /// goes back to stacked instead of being held wide by its own content.
    public static let sideBySideMinimumWidth = 640

    /// Side by side when the page is wide and short, as on a phone turned on its side (720×360 less
    /// the header bar): stacked, the buttons would be below the fold. Stacked otherwise (a phone
    /// held upright, a desktop window of any usual size).
    public static func isSideBySide(width: Int, height: Int) -> Bool {
        width >= sideBySideMinimumWidth && height < 600 && width * 3 >= height * 4
    }
}
