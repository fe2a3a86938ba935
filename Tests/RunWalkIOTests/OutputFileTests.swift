import Foundation
import Testing
@testable import RunWalkIO

@Suite("OutputFile: -o respects what is at the path")
struct OutputFileTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("runwalk-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func mode(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    @Test("a new file gets exactly the mode asked for, whatever the umask")
    func newFileMode() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("new.gpx").path
        // Read the umask without changing it for the other tests running beside this one.
        let mask = umask(0o022)
        umask(mask)
        try #require(mask & 0o002 != 0, "needs a umask that masks something (it is \(String(mask, radix: 8)))")
        // 0o666 under a masking umask would come out looser-masked if the umask applied.
        try OutputFile.write(Array("track".utf8), to: path, newFileMode: 0o666)
        #expect(mode(path) == 0o666)
        let private_ = folder.appendingPathComponent("private.gpx").path
        try OutputFile.write(Array("track".utf8), to: private_, newFileMode: 0o600)
        #expect(mode(private_) == 0o600)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "track")
    }

    @Test("a dangling symlink: its target is created, the link stays")
    func danglingLink() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let link = folder.appendingPathComponent("link").path
        let target = folder.appendingPathComponent("target").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        try OutputFile.write(Array("x".utf8), to: link, newFileMode: 0o600)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "x")
        #expect(mode(target) == 0o600)
    }

    @Test("errors are plain words with the path: a missing folder, a directory, a full device")
    func errors() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: OutputFile.Failure(path: "/nonexistent-folder/x.gpx", reason: "no such file or directory")) {
            try OutputFile.write([1], to: "/nonexistent-folder/x.gpx", newFileMode: 0o600)
        }
        #expect(throws: OutputFile.Failure(path: folder.path, reason: "is a directory")) {
            try OutputFile.write([1], to: folder.path, newFileMode: 0o600)
        }
        #expect(throws: OutputFile.Failure(path: "/dev/full", reason: "no space left on device")) {
            try OutputFile.write([1], to: "/dev/full", newFileMode: 0o600)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "no temporary file left behind")
    }
}
