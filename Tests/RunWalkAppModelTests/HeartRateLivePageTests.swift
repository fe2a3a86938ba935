import RunWalkAppModel
import RunWalkCore
import RunWalkRuntime
import Testing

@Suite struct HeartRateLivePageTests {
    @Test func theLivePageHasTheHeartRateAndItsZone() {
        var status = LivePageModelTests.running()
        #expect(LivePageModel(status).heartRate == nil)
        status.heartRateBPM = 143
        status.heartRateZone = 2
        #expect(LivePageModel(status).heartRate == "143 bpm · zone 2")
    }
}
