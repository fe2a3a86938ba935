import ArgumentParser

/// The `runwalk` command: run/walk interval training with GPS telemetry.
struct RunWalk: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runwalk",
        abstract: "Run/walk interval trainer with GPS telemetry.",
        version: "0.1.0",
        subcommands: [ReplayCommand.self, RunCommand.self, FixesCommand.self, WorkoutsCommand.self, ReportCommand.self,
                      HistoryCommand.self, RecoverCommand.self, ExportCommand.self, ImportCommand.self, ControlCommand.self,
                      PlanCommand.self, SessionEditCommand.self, SensorsCommand.self]
    )
}
