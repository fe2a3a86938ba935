import RunWalkAppModel
import Testing

@Suite("the live page's layout for the space it has")
struct LiveLayoutTests {
    @Test("a phone on its side puts the halves side by side; upright, a desktop and a narrow window stack them",
          arguments: [
              (720, 310, true),    // 720×360 phone in landscape, less the header bar
              (800, 430, true),    // a larger phone in landscape
              (360, 670, false),   // the same phone upright
              (1280, 750, false),  // a desktop window: tall enough to stack
              (626, 80, false),    // a window narrowed below the halves' own width: back to stacked
              (640, 500, false),   // wide enough, but not wide for its height
          ])
    func arrangement(width: Int, height: Int, sideBySide: Bool) {
        #expect(LiveLayout.isSideBySide(width: width, height: height) == sideBySide, "\(width)×\(height)")
    }
}
