import Testing
@testable import RunWalkCore

@Suite("Workout specs: long phases")
struct LongPhaseTests {
    @Test("a phase longer than 24 h is allowed (ultra runs, multi-day hikes)")
    func thirtyHours() throws {
        let workout = try Workout(parsing: "30h walk")
        #expect(workout.phases == [PlannedPhase(.walk, .duration(.seconds(30 * 3600)))])
    }

    @Test("beyond a week is still refused, with the column")
    func beyondAWeek() throws {
        let error = try #require(throws: WorkoutSpecError.self) { try Workout(parsing: "200h walk") }
        #expect(error.description.contains("longer than 7 days"), "\(error)")
    }
}
