import Foundation

// Release-mode benchmarks; each subcommand measures against a peer in the same run.
let arguments = CommandLine.arguments.dropFirst()
FileHandle.standardError.write(Data("runwalk-bench: subcommands arrive with the issues that define them (nmea, accuracy, voice, store); got \(arguments.joined(separator: " "))\n".utf8))
exit(2)
