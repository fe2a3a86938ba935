import Foundation
import RunWalkCore
import RunWalkRuntime
import Testing
@testable import RunWalkHost
import RunWalkIO

/// Issue 31, "The control socket": idle connections hold nobody up, a request whose client has
/// gone is dropped, and nothing another user planted in a folder open to others is trusted.
@Suite("ControlServer against hostile clients and folders")
struct ControlServerHostileTests {
    @Test("with idle connections open, status is answered within 1 s", arguments: [3, 50])
    func idleConnectionsHoldNobodyUp(idle: Int) async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let path = scratch.path + "/control.sock"
        let standIn = SessionStandIn(initial: SampleStatus.running) { command in command == .pause ? SampleStatus.paused : nil }
        let server = ControlServer(control: standIn.control, path: path)
        #expect(try server.start() == .listening)
        defer { server.stop() }
        var silent: [Int32] = []
        defer { for fd in silent { close(fd) } }
        for _ in 0..<idle { silent.append(try UnixSocket.connect(to: path).get()) }
        // Timed on this thread (a status needs nothing from the session's stand-in).
        let started = ContinuousClock.now
        #expect(try ControlClient(path: path, timeoutSeconds: 1).send(.status) == .ok(SampleStatus.running))
        #expect(ContinuousClock.now - started < .seconds(1))
        #expect(try await ask(ControlClient(path: path, timeoutSeconds: 5), .command(.pause)) == .ok(SampleStatus.paused))
        await standIn.finish()
        #expect(standIn.commands == [.pause])
    }

    @Test("a request whose client has hung up is not carried out")
    func hungUpClientDropped() throws {
        var ends: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        defer { close(ends[0]) }
        #expect(!ControlServer.hasHungUp(ends[0]), "a client waiting for its answer")
        #expect(UnixSocket.writeAll(ends[1], Array("pause\n".utf8)))
        #expect(!ControlServer.hasHungUp(ends[0]), "still waiting after its request")
        shutdown(ends[1], Int32(SHUT_WR))
        #expect(!ControlServer.hasHungUp(ends[0]), "closing only its write side, it still reads the answer")
        close(ends[1])
        #expect(ControlServer.hasHungUp(ends[0]), "gone: the request is dropped")
    }

    @Test("a socket another user planted in a folder open to others is removed when the session starts, and said")
    func plantedSocketRemoved() throws {
        guard getuid() == 0 else {
            print("skipped: planting a file of another user needs root")
            return
        }
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let folder = scratch.path + "/runwalk"
        #expect(mkdir(folder, 0o700) == 0)
        #expect(chmod(folder, 0o1777) == 0)
        // The attacker's server: a socket that answers, owned by another user.
        let planted = folder + "/control.sock"
        let standIn = SessionStandIn(initial: SampleStatus.paused) { _ in nil }
        let attacker = ControlServer(control: standIn.control, path: planted)
        #expect(try attacker.start() == .listening)
        defer { attacker.stop() }
        #expect(lchown(planted, 4242, 4242) == 0)

        // The client does not trust a folder others can write to, nor a socket another user owns.
        #expect(throws: ControlSocketError.writableByOthers(path: folder, mode: 0o1777)) {
            try ControlSocketPath.resolve(environment: ["XDG_RUNTIME_DIR": scratch.path], create: false)
        }
        var notices: [String] = []
        let path = try ControlSocketPath.resolve(environment: ["XDG_RUNTIME_DIR": scratch.path], create: true) { notices.append($0) }
        #expect(ScratchFolder.mode(folder).map { $0 & 0o7777 } == 0o700)
        #expect(ScratchFolder.mode(planted) == nil, "the planted socket is gone")
        #expect(notices.count == 1 && notices[0].contains("writable by others") && notices[0].contains("control.sock (uid 4242)"), "\(notices)")
        let ours = SessionStandIn(initial: SampleStatus.running) { _ in nil }
        let server = ControlServer(control: ours.control, path: path)
        #expect(try server.start() == .listening)
        defer { server.stop() }
        #expect(try ControlClient(path: try ControlSocketPath.resolve(environment: ["XDG_RUNTIME_DIR": scratch.path], create: false)).send(.status)
                == .ok(SampleStatus.running))
    }
}
