import Foundation
import Testing
import RunWalkIO

@Suite("PrivateFolder: owner-only folders and files")
struct PrivateFolderTests {
    func mode(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    @Test("every folder created on the way is 0700; an existing one on the way is left alone")
    func ensure() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("runwalk-private-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        chmod(root.path, 0o755)
        try PrivateFolder.ensure(root.path + "/a/b/c")
        #expect(mode(root.path) == 0o755, "not ours to change")
        for path in ["/a", "/a/b", "/a/b/c"] { #expect(mode(root.path + path) == 0o700, "\(path)") }
        try PrivateFolder.createFile(root.path + "/a/db")
        #expect(mode(root.path + "/a/db") == 0o600)
        #expect(throws: PrivateFolder.Failure.self) { try PrivateFolder.ensure(root.path + "/a/db/x") }
    }

    @Test("tighten changes the folder and the named files only, never a symlink's target")
    func tighten() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("runwalk-private-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let other = root.appendingPathComponent("someone-elses.txt").path
        let mine = root.appendingPathComponent("runwalk.sqlite").path
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("runwalk-outside-\(UUID().uuidString)").path
        for path in [other, mine, outside] { FileManager.default.createFile(atPath: path, contents: Data()); chmod(path, 0o644) }
        defer { try? FileManager.default.removeItem(atPath: outside) }
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("settings.conf").path, withDestinationPath: outside)
        try FileManager.default.createDirectory(atPath: root.path + "/locks", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: root.path + "/locks/x.lock", contents: Data())
        chmod(root.path + "/locks/x.lock", 0o644)
        chmod(root.path, 0o755)

        let changed = PrivateFolder.tighten(root.path, files: ["runwalk.sqlite", "settings.conf", "locks/"])
        #expect(Set(changed) == [root.path, mine, root.path + "/locks", root.path + "/locks/x.lock"])
        #expect(mode(root.path) == 0o700 && mode(mine) == 0o600 && mode(root.path + "/locks/x.lock") == 0o600)
        #expect(mode(other) == 0o644, "not RunWalk's file")
        #expect(mode(outside) == 0o644, "a symlink's target is left alone")
        #expect(PrivateFolder.tighten(root.path, files: ["runwalk.sqlite", "locks/"]).isEmpty, "nothing left to change")
    }
}
