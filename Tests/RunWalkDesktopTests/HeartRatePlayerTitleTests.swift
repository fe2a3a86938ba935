import RunWalkCore
import RunWalkDesktop
import RunWalkRuntime
import Testing

@Suite("Heart rate in the MPRIS title")
struct HeartRatePlayerTitleTests {
    @Test("where there is room the title ends with the heart rate; without a strap it is as before")
    func title() {
        var status = runningStatus()
        status.heartRateBPM = 152
        #expect(PlayerState(status).title == "Run 3 of 5 · 1:12 left · 152 bpm")
        status.heartRateBPM = nil
        #expect(PlayerState(status).title == "Run 3 of 5 · 1:12 left")
    }
}
