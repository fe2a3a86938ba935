import Foundation
import Testing
@testable import RunWalkHost
import RunWalkIO

/// Where the socket lives, and the checks on its folder.
@Suite("ControlSocketPath")
struct ControlSocketPathTests {
    @Test("XDG_RUNTIME_DIR: runwalk/control.sock in a folder made 0700; an existing folder of ours is tightened")
    func runtimeDirectory() throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let path = try ControlSocketPath.resolve(environment: ["XDG_RUNTIME_DIR": scratch.path + "/"], create: true)
        #expect(path == scratch.path + "/runwalk/control.sock")
        #expect(ScratchFolder.mode(scratch.path + "/runwalk").map { $0 & 0o777 } == 0o700)
        #expect(chmod(scratch.path + "/runwalk", 0o755) == 0)
        _ = try ControlSocketPath.resolve(environment: ["XDG_RUNTIME_DIR": scratch.path], create: true)
        #expect(ScratchFolder.mode(scratch.path + "/runwalk").map { $0 & 0o777 } == 0o700)
    }

    @Test("without XDG_RUNTIME_DIR: runwalk-UID under the temporary root, made 0700 and ours")
    func temporaryFallback() throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let path = try ControlSocketPath.resolve(environment: [:], temporaryRoot: scratch.path, create: true)
        let folder = scratch.path + "/runwalk-\(getuid())"
        #expect(path == folder + "/control.sock")
        var info = stat()
        #expect(lstat(folder, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFDIR)
        #expect(info.st_mode & 0o777 == 0o700)
        #expect(info.st_uid == getuid())
        // A relative XDG_RUNTIME_DIR is not trusted either.
        #expect(try ControlSocketPath.resolve(environment: ["XDG_RUNTIME_DIR": "run"], temporaryRoot: scratch.path, create: false) == path)
    }

    @Test("a folder owned by someone else is refused, a symlink or a file in its place too")
    func refusedFolders() throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        // We own every folder we make, so play a user whose name it is not: uid + 1.
        let other = getuid() + 1
        let theirs = scratch.path + "/runwalk-\(other)"
        #expect(mkdir(theirs, 0o700) == 0)
        #expect(throws: ControlSocketError.ownedByOther(path: theirs, owner: getuid(), us: other)) {
            try ControlSocketPath.resolve(environment: [:], uid: other, temporaryRoot: scratch.path, create: true)
        }
        #expect(throws: ControlSocketError.ownedByOther(path: theirs, owner: getuid(), us: other)) {
            try ControlSocketPath.resolve(environment: [:], uid: other, temporaryRoot: scratch.path, create: false)
        }
        #expect(ControlSocketError.ownedByOther(path: theirs, owner: 0, us: 1000).description
                == "\(theirs): owned by uid 0, not by us (uid 1000); refusing to use it")

        let link = scratch.path + "/runwalk-\(getuid())"
        #expect(symlink(scratch.path, link) == 0)
        #expect(throws: ControlSocketError.notAFolder(path: link)) {
            try ControlSocketPath.resolve(environment: [:], temporaryRoot: scratch.path, create: true)
        }
    }

    @Test("RUNWALK_CONTROL_SOCKET names the socket as given; over-long paths are refused")
    func overrideAndLength() throws {
        #expect(try ControlSocketPath.resolve(environment: ["RUNWALK_CONTROL_SOCKET": "/x/y.sock", "XDG_RUNTIME_DIR": "/run"], create: true)
                == "/x/y.sock")
        let long = "/" + String(repeating: "d", count: 120)
        #expect(throws: ControlSocketError.pathTooLong(path: long + "/runwalk/control.sock")) {
            try ControlSocketPath.resolve(environment: ["XDG_RUNTIME_DIR": long], create: false)
        }
    }
}
