import Foundation
import RunWalkCore
import RunWalkRuntime
import Testing
@testable import RunWalkHost
import RunWalkIO

/// The control server and client over real Unix sockets in a scratch folder.
@Suite("ControlServer and ControlClient")
struct ControlServerTests {
    @Test("status: the published status comes back; the socket is 0600 in a 0700 folder")
    func statusAndModes() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let path = try ControlSocketPath.resolve(environment: ["XDG_RUNTIME_DIR": scratch.path], create: true)
        #expect(path == scratch.path + "/runwalk/control.sock")
        let standIn = SessionStandIn(initial: SampleStatus.running) { _ in nil }
        let server = ControlServer(control: standIn.control, path: path)
        #expect(try server.start() == .listening)
        defer { server.stop() }

        let folderMode = try #require(ScratchFolder.mode(scratch.path + "/runwalk"))
        #expect(folderMode & S_IFMT == S_IFDIR)
        #expect(folderMode & 0o777 == 0o700)
        let socketMode = try #require(ScratchFolder.mode(path))
        #expect(socketMode & S_IFMT == S_IFSOCK)
        #expect(socketMode & 0o777 == 0o600)

        let response = try await ask(ControlClient(path: path), .status)
        #expect(response == .ok(SampleStatus.running))
        let raw = try #require(try rawExchange(path, Array("status\n".utf8)))
        #expect(raw.hasPrefix("{\"ok\":true,\"status\":{"), "\(raw)")
        #expect(raw.contains("\"phase_remaining_s\":72"), "\(raw)")
        await standIn.finish()
        #expect(standIn.commands.isEmpty, "a status request sends no command")
    }

    @Test("commands reach the SessionControl, and the answer is the status that shows their effect")
    func commandsSettle() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let path = scratch.path + "/control.sock"
        let standIn = SessionStandIn(initial: SampleStatus.running) { command in
            switch command {
            case .pause: SampleStatus.paused
            case .resume: SampleStatus.running
            case .skip: SampleStatus.skipped
            default: nil
            }
        }
        let server = ControlServer(control: standIn.control, path: path, settleSeconds: 10)
        #expect(try server.start() == .listening)
        defer { server.stop() }
        let client = ControlClient(path: path, timeoutSeconds: 20)

        #expect(try await ask(client, .command(.pause)) == .ok(SampleStatus.paused))
        #expect(try await ask(client, .command(.resume)) == .ok(SampleStatus.running))
        #expect(try await ask(client, .command(.skip)) == .ok(SampleStatus.skipped))
        await standIn.finish()
        #expect(standIn.commands == [.pause, .resume, .skip])
    }

    @Test("a command nothing answers: sent, and the latest status comes back once the settle time is up")
    func commandWithoutEffect() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let path = scratch.path + "/control.sock"
        let standIn = SessionStandIn(initial: SampleStatus.running) { _ in nil }
        let server = ControlServer(control: standIn.control, path: path, settleSeconds: 0.2)
        #expect(try server.start() == .listening)
        defer { server.stop() }
        #expect(try await ask(ControlClient(path: path), .command(.restart)) == .ok(SampleStatus.running))
        await standIn.finish()
        #expect(standIn.commands == [.restart])
        // Once the session has ended, commands are refused, status still answers.
        #expect(try await ask(ControlClient(path: path), .command(.skip)) == .failure("the session has ended; skip was not sent"))
        #expect(try await ask(ControlClient(path: path), .status) == .ok(SampleStatus.running))
    }

    @Test("a stale socket file (nothing listening) is replaced")
    func staleSocketReplaced() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let path = scratch.path + "/control.sock"
        // Bound and closed without listening: what a crashed session leaves behind.
        let fd = UnixSocket.makeStream()
        #expect(UnixSocket.withAddress(path) { bind(fd, $0, $1) } == 0)
        close(fd)
        #expect(ScratchFolder.mode(path).map { $0 & S_IFMT } == S_IFSOCK)
        #expect(throws: ControlClientError.noSession(path: path)) { try ControlClient(path: path).send(.status) }

        let standIn = SessionStandIn(initial: SampleStatus.running) { _ in nil }
        let server = ControlServer(control: standIn.control, path: path)
        #expect(try server.start() == .listening)
        defer { server.stop() }
        #expect(try await ask(ControlClient(path: path), .status) == .ok(SampleStatus.running))
    }

    @Test("a second server is refused while the first answers; a file that is not a socket is left alone")
    func secondServerRefused() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let path = scratch.path + "/control.sock"
        let first = SessionStandIn(initial: SampleStatus.running) { _ in nil }
        let second = SessionStandIn(initial: SampleStatus.paused) { _ in nil }
        let firstServer = ControlServer(control: first.control, path: path)
        #expect(try firstServer.start() == .listening)
        defer { firstServer.stop() }
        let secondServer = ControlServer(control: second.control, path: path)
        #expect(try secondServer.start() == .anotherSessionAnswers)
        #expect(secondServer.stop(), "stopping a server that never started is a no-op")
        // The probe did not disturb the first, and the second's stop() left its socket in place.
        #expect(try await ask(ControlClient(path: path), .status) == .ok(SampleStatus.running))

        var warnings: [String] = []
        let viaOwner = ControlServer.startForSession(control: second.control, environment: [ControlSocketPath.overrideVariable: path]) {
            warnings.append($0)
        }
        #expect(viaOwner == nil)
        #expect(warnings == ["runwalk: another session is running (it answers on \(path)); this one runs without `runwalk control`"])

        let plain = scratch.path + "/not-a-socket"
        #expect(FileManager.default.createFile(atPath: plain, contents: Data("keep me".utf8)))
        #expect(throws: ControlSocketError.notASocket(path: plain)) {
            try ControlServer(control: second.control, path: plain).start()
        }
        #expect(FileManager.default.contents(atPath: plain) == Data("keep me".utf8))
    }

    @Test("no server: the client says no session is running")
    func noServer() throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let path = scratch.path + "/control.sock"
        #expect(throws: ControlClientError.noSession(path: path)) { try ControlClient(path: path).send(.command(.pause)) }
        #expect(ControlClientError.noSession(path: path).description == "no session is running")
        // The client's path lookup creates nothing.
        let resolved = try ControlSocketPath.resolve(environment: ["XDG_RUNTIME_DIR": scratch.path], create: false)
        #expect(throws: ControlClientError.noSession(path: resolved)) { try ControlClient(path: resolved).send(.status) }
        #expect(ScratchFolder.mode(scratch.path + "/runwalk") == nil)
    }

    @Test("malformed requests get an error line; a silent client times out; a probe gets nothing")
    func malformedRequests() throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let path = scratch.path + "/control.sock"
        let standIn = SessionStandIn(initial: SampleStatus.running) { _ in nil }
        let server = ControlServer(control: standIn.control, path: path, readTimeoutSeconds: 0.3)
        #expect(try server.start() == .listening)
        defer { server.stop() }
        let expected = "pause, resume, toggle, skip, restart, stop, start, status"
        #expect(try rawExchange(path, Array("jump\n".utf8)) == "{\"ok\":false,\"error\":\"unknown request \\\"jump\\\"; expected one of: \(expected)\"}")
        #expect(try rawExchange(path, Array("\n".utf8)) == "{\"ok\":false,\"error\":\"empty request; expected one of: \(expected)\"}")
        #expect(try rawExchange(path, [0xff, 0xfe, 0x0a]) == "{\"ok\":false,\"error\":\"the request is not UTF-8 text\"}")
        #expect(try rawExchange(path, Array(repeating: UInt8(ascii: "a"), count: 300)) == "{\"ok\":false,\"error\":\"request longer than 256 bytes\"}")
        #expect(try rawExchange(path, []) == "{\"ok\":false,\"error\":\"no request within 0.3 s\"}")
        #expect(try rawExchange(path, [], shutdownWrite: true) == nil)
        // A request without its newline, ended by closing the write side, still counts.
        #expect(try rawExchange(path, Array(" status\r".utf8), shutdownWrite: true)?.hasPrefix("{\"ok\":true,\"status\":{") == true)
    }

    @Test("stop() ends the accept thread at once, even while a client waits for a command's effect, and removes the socket")
    func stopEndsThread() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let path = scratch.path + "/control.sock"
        let (arrived, arrival) = AsyncStream<SessionCommand>.makeStream()
        let standIn = SessionStandIn(initial: SampleStatus.running) { command in
            arrival.yield(command)
            return nil
        }
        let server = ControlServer(control: standIn.control, path: path, readTimeoutSeconds: 600, settleSeconds: 600)
        #expect(try server.start() == .listening)
        // The server is busy with this client once its command has reached the session.
        let waiting = Task { try await ask(ControlClient(path: path, timeoutSeconds: 600), .command(.pause)) }
        for await command in arrived {
            #expect(command == .pause)
            break
        }
        let started = ContinuousClock.now
        #expect(server.stop(timeoutSeconds: 5), "the accept thread ended")
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(try await waiting.value == .ok(SampleStatus.running), "the waiting client got the latest status")
        #expect(ScratchFolder.mode(path) == nil, "socket file removed")
        #expect(throws: ControlClientError.noSession(path: path)) { try ControlClient(path: path).send(.status) }
        #expect(server.stop(timeoutSeconds: 0.1), "a second stop() is harmless")
        // The path is free for the next session.
        let next = ControlServer(control: standIn.control, path: path, readTimeoutSeconds: 600)
        #expect(try next.start() == .listening)
        // A silent client (accepted or still queued) does not hold stop() up either.
        let silent = try UnixSocket.connect(to: path).get()
        defer { close(silent) }
        #expect(next.stop(timeoutSeconds: 5))
        switch UnixSocket.readLine(silent, limit: 4096, timeoutSeconds: 5) {
        case .line(let answer): #expect(String(decoding: answer, as: UTF8.self) == "{\"ok\":false,\"error\":\"the session is ending\"}")
        case .endOfFile(let rest): #expect(rest.isEmpty, "closed unanswered when stop() came first")
        case .failed(ECONNRESET): break  // still queued when the listener closed: reset, not left hanging
        case let other: Issue.record("the silent client was left hanging: \(other)")
        }
        // A stopped server starts again and stops again; stop() before start() changes nothing.
        #expect(try next.start() == .listening)
        #expect(next.stop())
        #expect(ScratchFolder.mode(path) == nil)
        let never = ControlServer(control: standIn.control, path: path)
        #expect(never.stop())
        #expect(try never.start() == .listening)
        #expect(never.stop())
        #expect(ScratchFolder.mode(path) == nil)
    }
}
