import Foundation

/// Private data, config, state, cache and runtime folders for the processes a test starts, so that
/// no test reads the user's settings or writes into their sessions (issue 28: a test run left ten
/// sessions in the user's history). Every `ChildProcess` gets one (its own unless it is given one
/// to share); the folders are removed with it.
public final class PrivateEnvironment: @unchecked Sendable {
    /// The folder holding the others.
    public let root: URL
    private let lock = NSLock()
    private var removed = false

    /// Creates the folders (each 0700, as XDG_RUNTIME_DIR must be) under the temporary folder.
    public init(_ label: String = "runwalk-test") throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(getpid())-\(UUID().uuidString.prefix(8))")
        for folder in [root] + Self.names.map({ root.appendingPathComponent($0) }) {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            guard chmod(folder.path, 0o700) == 0 else {
                throw PrivateEnvironmentError("cannot make \(folder.path) private: errno \(errno)")
            }
        }
    }

    private static let names = ["data", "config", "state", "cache", "runtime"]

    public var dataFolder: URL { root.appendingPathComponent("data") }
    public var configFolder: URL { root.appendingPathComponent("config") }
    public var stateFolder: URL { root.appendingPathComponent("state") }
    public var cacheFolder: URL { root.appendingPathComponent("cache") }
    public var runtimeFolder: URL { root.appendingPathComponent("runtime") }

    /// The variables that point RunWalk (and every XDG program: PulseAudio, chromium, mpv, GLib)
    /// at these folders.
    public var variables: [String: String] {
        ["RUNWALK_DATA_DIR": dataFolder.appendingPathComponent("runwalk").path,
         "RUNWALK_CONFIG_DIR": configFolder.appendingPathComponent("runwalk").path,
         "XDG_DATA_HOME": dataFolder.path,
         "XDG_CONFIG_HOME": configFolder.path,
         "XDG_STATE_HOME": stateFolder.path,
         "XDG_CACHE_HOME": cacheFolder.path,
         "XDG_RUNTIME_DIR": runtimeFolder.path]
    }

    /// The test process's environment with these folders in place of the user's, then `extra`
    /// on top (a test that names its own RUNWALK_DATA_DIR or XDG_RUNTIME_DIR keeps it).
    /// RUNWALK_CONTROL_SOCKET is dropped, so a control socket lands in the private runtime folder.
    /// A test that names only XDG_DATA_HOME (or XDG_CONFIG_HOME) gets no RUNWALK_DATA_DIR (or
    /// RUNWALK_CONFIG_DIR), so RunWalk finds its folder there, as it would for a user.
    public func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.merging(variables) { _, new in new }
        environment["RUNWALK_CONTROL_SOCKET"] = nil
        if extra["XDG_DATA_HOME"] != nil { environment["RUNWALK_DATA_DIR"] = nil }
        if extra["XDG_CONFIG_HOME"] != nil { environment["RUNWALK_CONFIG_DIR"] = nil }
        return environment.merging(extra) { _, new in new }
    }

    /// Removes the folders and everything in them (once).
    public func remove() {
        let first = lock.withLock { () -> Bool in
            defer { removed = true }
            return !removed
        }
        guard first else { return }
        // Folders made writable first: a test may leave a read-only one behind (permissions tests).
        // Only real folders (lstat), never what a symbolic link points at.
        if let paths = FileManager.default.enumerator(atPath: root.path) {
            for case let path as String in paths {
                let full = root.appendingPathComponent(path).path
                var info = stat()
                if lstat(full, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR { chmod(full, 0o700) }
            }
        }
        try? FileManager.default.removeItem(at: root)
    }

    deinit { remove() }
}

/// Private folders that could not be set up.
public struct PrivateEnvironmentError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
