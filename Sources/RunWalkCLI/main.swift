import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RunWalkHost
import RunWalkIO

// Exit codes (DESIGN.md): 0 success, 1 runtime failure, 2 usage or input error.
// A mask blocking SIGTERM and SIGINT can come from the parent: a command at a prompt must still
// end on them like any Unix tool (and `run` turn them into a stop), so the mask starts empty.
InheritedSignalMask.clear()
// Large freed blocks go back to the kernel: a 5-hour run's memory stays where it settles.
MemoryReturn.holdMappingThreshold()
// SIGQUIT (Ctrl-\) is sent by a user, not a crash: the Swift runtime's backtracer would print
// "Program crashed" for it, so its default action (quit) comes back; `run` and `replay` then
// make it a stop that finalises the session, like SIGTERM.
signal(SIGQUIT, SIG_DFL)
Terminal.guardStandardDescriptors()
Privacy.tightenExisting()
do {
    var command = try RunWalk.parseAsRoot()
    // A live run handles Ctrl-Z itself (StopSignalPause): SIGTSTP stays blocked in every thread,
    // which is why this comes before anything starts one.
    if command is RunCommand { StopSignalPause.holdStopSignals() }
    // Any command first closes sessions a crash left open (`recover` does it itself and says so;
    // `control` is a button press for the live session and stays off the store).
    // A database a newer RunWalk wrote is refused by every command that uses the store (recording
    // included), before anything reads or writes it.
    if !(command is ControlCommand || command is FixesCommand || command is WorkoutsCommand || command is ImportCommand) {
        try StoreAccess.refuseNewerStore()
    }
    if !(command is RecoverCommand || command is ControlCommand) { StoreAccess.recoverAtStartup() }
    try command.run()
    // A standard stream that failed on the way (already reported once) fails the command.
    exit(Terminal.anyFailed ? 1 : 0)
} catch is Terminal.OutputFailed {
    exit(1)
} catch let error as UserFacingError {
    Terminal.error(error.message)
    exit(error.exitCode)
} catch let error as VoiceOutputError {
    Terminal.error(error.message)
    exit(error.input ? 2 : 1)
} catch {
    let code = RunWalk.exitCode(for: error)
    if code == .success {
        // --help and --version.
        Terminal.out(RunWalk.fullMessage(for: error))
        exit(Terminal.anyFailed ? 1 : 0)
    }
    if code == .validationFailure {
        Terminal.warning(RunWalk.fullMessage(for: error))
        exit(2)
    }
    Terminal.error(RunWalk.message(for: error))
    exit(code.rawValue == 0 ? 1 : code.rawValue)
}
