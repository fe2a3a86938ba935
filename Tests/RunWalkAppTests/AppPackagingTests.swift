import Foundation
import Testing
import RunWalkTestSupport

/// The app's desktop file and AppStream metainfo pass the freedesktop validators, and name the
/// same application (the ID the app registers, its icon, its binary).
@Suite(.enabled(if: PackagingTools.present || ProcessInfo.processInfo.environment["CI"] == "true",
                "needs desktop-file-validate and appstreamcli (scripts/test installs them)"))
struct AppPackagingTests {
    static let folder = AppUI.AppLivePageTests.repositoryRoot.appendingPathComponent("packaging/app")
    static let id = "org.runwalk.RunWalk"

    static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        // Standard error joined to standard output, as the validators' callers read them.
        let result = try ChildProcess.run(tool, arguments, seconds: 60)
        return (result.status ?? SIGKILL, result.stdout + result.stderr)
    }

    @Test func desktopFileIsValid() throws {
        let path = Self.folder.appendingPathComponent("\(Self.id).desktop").path
        let result = try Self.run("/usr/bin/desktop-file-validate", [path])
        #expect(result.status == 0 && result.output.isEmpty, "desktop-file-validate: \(result.output)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\nExec=runwalk-app\n"))
        #expect(text.contains("\nIcon=\(Self.id)\n"))
        #expect(FileManager.default.fileExists(atPath: Self.folder.appendingPathComponent("\(Self.id).svg").path))
    }

    @Test func metainfoIsValid() throws {
        let path = Self.folder.appendingPathComponent("\(Self.id).metainfo.xml").path
        let result = try Self.run("/usr/bin/appstreamcli", ["validate", "--no-net", path])
        #expect(result.status == 0, "appstreamcli validate: \(result.output)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("<id>\(Self.id)</id>"))
        #expect(text.contains("<launchable type=\"desktop-id\">\(Self.id).desktop</launchable>"))
    }

    @Test func theAppRegistersTheSameID() throws {
        let source = AppUI.AppLivePageTests.repositoryRoot.appendingPathComponent("Sources/RunWalkApp/AppController.swift").path
        let text = try String(contentsOfFile: source, encoding: .utf8)
        #expect(text.contains("static let applicationID = \"\(Self.id)\""))
    }
}

/// The validators the packaging tests run.
enum PackagingTools {
    static let present = ["/usr/bin/desktop-file-validate", "/usr/bin/appstreamcli"].allSatisfy {
        FileManager.default.isExecutableFile(atPath: $0)
    }
}
