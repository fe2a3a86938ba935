import Dispatch
import FoundationEssentials
import RunWalkIO
import RunWalkRuntime
#if canImport(Glibc)
import Glibc
#endif

/// Lets `runwalk control` (and scripts, status bars) reach the running session through a Unix
/// socket: one request line in, one JSON line out, then the connection closes.
///
/// One thread waits in poll(2) on the listening socket, a wake pipe and every connected client,
/// with no timeout while no client is connected, so an idle server never wakes the CPU; `stop()`
/// writes to the pipe and the thread ends at once. Clients are read side by side, each with its
/// own deadline, so idle connections hold nobody up: a status is answered at once, a command's
/// wait for its effect runs on a thread of its own. A request whose client has already hung up
/// (it gave up waiting) is dropped, never carried out late.
public final class ControlServer: @unchecked Sendable {
    /// What `start()` found.
    public enum StartResult: Equatable, Sendable {
        /// The socket is ours and the thread serves it.
        case listening
        /// Another session answers on the socket: this one runs without control.
        case anotherSessionAnswers
    }

    /// The socket's path.
    public let path: String
    private let control: SessionControl
    private let readTimeoutSeconds: Double
    private let settleSeconds: Double
    private static let requestLimit = 256
    /// Connections read at once; the oldest goes when one more comes (a flood cannot shut others out for long).
    static let maximumClients = 64
    /// Commands waiting for their effect at once.
    static let maximumCommandsInFlight = 8

    private let lock = Lock()
    private var wakeWrite: Int32 = -1
    private var finished: DispatchSemaphore?
    private var socketIdentity: (device: UInt64, inode: UInt64)?
    private var waiting: [ObjectIdentifier: SettleWaiter] = [:]
    private var commandsInFlight = 0
    /// The command threads still running: `stop()` waits for their answers to go out (the
    /// process may exit right after it, and a `control stop` must hear that it was done).
    private let commandThreads = DispatchGroup()
    private var stopped = false

    /// A server for `control` at `path`; nothing happens before `start()`.
    /// `readTimeoutSeconds` bounds a silent client; `settleSeconds` bounds the wait for a
    /// status that shows a command's effect (the session publishes at least once a second).
    public init(control: SessionControl, path: String, readTimeoutSeconds: Double = 2, settleSeconds: Double = 2) {
        self.control = control
        self.path = path
        self.readTimeoutSeconds = readTimeoutSeconds
        self.settleSeconds = settleSeconds
    }

    /// Resolves the path for this user, starts serving, and says on `warn` why not when it
    /// cannot: the owner's one call. Nil means the session runs without a control socket.
    public static func startForSession(control: SessionControl,
                                       environment: [String: String] = ProcessInfo.processInfo.environment,
                                       warn: (String) -> Void) -> ControlServer? {
        do {
            let path = try ControlSocketPath.resolve(environment: environment, create: true, notice: warn)
            let server = ControlServer(control: control, path: path)
            switch try server.start() {
            case .listening: return server
            case .anotherSessionAnswers:
                warn("runwalk: another session is running (it answers on \(server.path)); this one runs without `runwalk control`")
                return nil
            }
        } catch {
            warn("runwalk: control socket: \(error); this session runs without `runwalk control`")
            return nil
        }
    }

    /// Binds the socket (replacing a stale one nobody listens on) and starts the thread.
    public func start() throws(ControlSocketError) -> StartResult {
        try ControlSocketPath.checkLength(path)
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path: path) }
            switch UnixSocket.connect(to: path) {
            case .success(let probe):
                // Connecting and closing is a request the other server ignores.
                close(probe)
                return .anotherSessionAnswers
            case .failure(let failure) where failure.code == ECONNREFUSED:
                // Left by a session that crashed: nothing listens, replace it.
                if unlink(path) != 0 && errno != ENOENT { throw .system(path: path, SocketErrno(call: "unlink", code: errno)) }
            case .failure(let failure):
                throw .system(path: path, failure)
            }
        }
        let listener = try bindListener()
        var pipeEnds: [Int32] = [-1, -1]
        // pipe2 and accept4 are GNU extensions Swift's Glibc module does not show: pipe, then FD_CLOEXEC.
        guard pipe(&pipeEnds) == 0, fcntl(pipeEnds[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(pipeEnds[1], F_SETFD, FD_CLOEXEC) == 0 else {
            let failure = SocketErrno(call: "pipe", code: errno)
            close(listener)
            unlink(path)
            throw .system(path: path, failure)
        }
        let done = DispatchSemaphore(value: 0)
        lock.withLock {
            wakeWrite = pipeEnds[1]
            finished = done
            stopped = false
        }
        let wakeRead = pipeEnds[0]
        NamedThread.start(name: "runwalk-control") { [self] in
            acceptLoop(listener: listener, wakeRead: wakeRead)
            close(listener)
            close(wakeRead)
            done.signal()
        }
        return .listening
    }

    /// Ends the thread and removes the socket file. Returns whether the thread ended within
    /// `timeoutSeconds` (it should at once: only a client being served can hold it up, and
    /// that read is woken too).
    @discardableResult
    public func stop(timeoutSeconds: Double = 2) -> Bool {
        let (wake, done, identity, waiters): (Int32, DispatchSemaphore?, (device: UInt64, inode: UInt64)?, [SettleWaiter]) = lock.withLock {
            // Never started, or stopped already: nothing to do.
            guard !stopped, finished != nil else { return (-1, nil, nil, []) }
            defer { stopped = true; wakeWrite = -1 }
            return (wakeWrite, finished, socketIdentity, Array(waiting.values))
        }
        guard let done else { return true }
        for waiter in waiters { waiter.cancel() }
        var byte: UInt8 = 1
        _ = write(wake, &byte, 1)
        let deadline = DispatchTime.now() + timeoutSeconds
        let ended = done.wait(timeout: deadline) == .success && commandThreads.wait(timeout: deadline) == .success
        close(wake)
        // Remove the file only if it is still the socket we bound (a later session may own the path now).
        var info = stat()
        if let identity, lstat(path, &info) == 0, UInt64(info.st_dev) == identity.device, UInt64(info.st_ino) == identity.inode {
            unlink(path)
        }
        return ended
    }

    deinit { stop(timeoutSeconds: 0.5) }

    private func bindListener() throws(ControlSocketError) -> Int32 {
        let fd = UnixSocket.makeStream()
        guard fd >= 0 else { throw .system(path: path, SocketErrno(call: "socket", code: errno)) }
        let bound = UnixSocket.withAddress(path) { bind(fd, $0, $1) } ?? -1
        guard bound == 0 else {
            let failure = SocketErrno(call: "bind", code: errno)
            close(fd)
            throw .system(path: path, failure)
        }
        var info = stat()
        // The folder is already private; 0600 keeps the socket so where it is not (an override path).
        guard chmod(path, 0o600) == 0, listen(fd, 8) == 0, fcntl(fd, F_SETFL, O_NONBLOCK) == 0, lstat(path, &info) == 0 else {
            let failure = SocketErrno(call: "listen", code: errno)
            close(fd)
            unlink(path)
            throw .system(path: path, failure)
        }
        lock.withLock { socketIdentity = (UInt64(info.st_dev), UInt64(info.st_ino)) }
        return fd
    }

    /// A connected client whose request is being read.
    private struct Reading {
        var fd: Int32
        var bytes: [UInt8] = []
        var deadline: UInt64
    }

    private func acceptLoop(listener: Int32, wakeRead: Int32) {
        var clients: [Reading] = []
        defer { for client in clients { close(client.fd) } }
        var chunk = [UInt8](repeating: 0, count: 512)
        while true {
            var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            fds += clients.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            // No timeout while nobody is connected: asleep until a client or stop().
            var timeoutMs: Int32 = -1
            if let next = clients.map(\.deadline).min() {
                let now = DispatchTime.now().uptimeNanoseconds
                timeoutMs = next <= now ? 0 : Int32(min(UInt64(Int32.max), (next - now + 999_999) / 1_000_000))
            }
            let ready = poll(&fds, nfds_t(fds.count), timeoutMs)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            let now = DispatchTime.now().uptimeNanoseconds
            for index in clients.indices.reversed() {
                let revents = fds[index + 2].revents
                var client = clients[index]
                let outcome: UnixSocket.LineRead?
                if revents != 0 {
                    let count = chunk.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                    if count > 0 {
                        client.bytes.append(contentsOf: chunk[0..<count])
                        if let newline = client.bytes.firstIndex(of: UInt8(ascii: "\n")) {
                            outcome = newline <= Self.requestLimit ? .line(Array(client.bytes[..<newline])) : .tooLong
                        } else {
                            outcome = client.bytes.count > Self.requestLimit ? .tooLong : nil
                        }
                    } else if count == 0 {
                        outcome = .endOfFile(client.bytes)
                    } else {
                        outcome = errno == EINTR || errno == EAGAIN ? nil : .failed(errno)
                    }
                } else {
                    outcome = now >= client.deadline ? .timedOut : nil
                }
                guard let outcome else {
                    clients[index] = client
                    continue
                }
                clients.remove(at: index)
                serve(client.fd, outcome)
            }
            guard fds[0].revents & Int16(POLLIN) != 0 else { continue }
            // Every waiting connection at once (the listener is non-blocking).
            while true {
                let fd = accept(listener, nil, nil)
                if fd < 0 {
                    if errno == EINTR || errno == ECONNABORTED { continue }
                    if errno == EAGAIN { break }
                    // Out of descriptors: the listener stays readable, so back off (on the wake
                    // pipe, so stop() still ends it) instead of spinning.
                    var wakeOnly = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
                    if poll(&wakeOnly, 1, 100) > 0 { return }
                    break
                }
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                if clients.count >= Self.maximumClients {
                    let oldest = clients.removeFirst()
                    reply(oldest.fd, .failure("too many connections to the control socket; this one waited longest"))
                }
                clients.append(Reading(fd: fd, deadline: DispatchTime.now().uptimeNanoseconds + UInt64(max(0, readTimeoutSeconds) * 1e9)))
            }
        }
    }

    /// Answers one client (and closes it), or hands a command to a thread that waits for its effect.
    private func serve(_ client: Int32, _ read: UnixSocket.LineRead) {
        let request: [UInt8]
        switch read {
        case .line(let bytes): request = bytes
        case .endOfFile(let bytes) where !bytes.isEmpty: request = bytes
        case .endOfFile, .failed, .cancelled:
            // A probe (connect and close) or a client gone: nobody to answer.
            close(client)
            return
        case .timedOut: return reply(client, .failure(ControlProtocolError.noRequest(afterSeconds: readTimeoutSeconds).description))
        case .tooLong: return reply(client, .failure(ControlProtocolError.tooLong(limit: Self.requestLimit).description))
        }
        // A client that hung up gave up waiting (and told its user the command failed): carrying
        // the command out now would do what was reported as not done.
        if Self.hasHungUp(client) {
            close(client)
            return
        }
        switch ControlRequest.parse(request) {
        case .failure(let error): reply(client, .failure(error.description))
        case .success(.status): reply(client, .ok(control.status))
        case .success(.command(let command)):
            if control.hasEnded {
                // The front end is still finishing (the summary is written): a stop reaches it and
                // ends it (`SessionControl.afterEnd`).
                if command == .stop {
                    control.send(command)
                    return reply(client, .ok(control.status))
                }
                return reply(client, .failure("the session has ended; \(command.rawValue) was not sent"))
            }
            let admitted: Bool = lock.withLock {
                guard commandsInFlight < Self.maximumCommandsInFlight else { return false }
                commandsInFlight += 1
                return true
            }
            guard admitted else { return reply(client, .failure("too many commands at once; \(command.rawValue) was not sent")) }
            commandThreads.enter()
            let started = NamedThread.start(name: "runwalk-command") { [self] in
                reply(client, .ok(sendAndSettle(command)))
                lock.withLock { commandsInFlight -= 1 }
                commandThreads.leave()
            }
            if !started {
                commandThreads.leave()
                lock.withLock { commandsInFlight -= 1 }
                reply(client, .failure("no thread to carry out \(command.rawValue); it was not sent"))
            }
        }
    }

    /// Whether the peer has closed its end altogether (POLLHUP); one that only shut its write
    /// side (`socat`, a request without a newline) still waits for the answer.
    static func hasHungUp(_ fd: Int32) -> Bool {
        var probe = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
        return poll(&probe, 1, 0) > 0 && probe[0].revents & Int16(POLLHUP) != 0
    }

    /// Writes the answer line without waiting (it fits an empty socket buffer) and closes.
    private func reply(_ client: Int32, _ response: ControlResponse) {
        _ = UnixSocket.writeAll(client, Array((response.encoded() + "\n").utf8))
        close(client)
    }

    /// Sends `command` and waits (up to `settleSeconds`) for a status that shows its effect;
    /// the latest status when none does in time.
    private func sendAndSettle(_ command: SessionCommand) -> SessionStatus? {
        let before = control.status
        if let before, ControlSettle.isSettled(command, before: before, now: before) {
            control.send(command)
            return control.status
        }
        let waiter = SettleWaiter { ControlSettle.isSettled(command, before: before, now: $0) }
        // Observe before sending, so a status published at once is not missed.
        let token = control.observe { waiter.offer($0) }
        let key = ObjectIdentifier(waiter)
        let proceed: Bool = lock.withLock {
            guard !stopped else { return false }
            waiting[key] = waiter
            return true
        }
        control.send(command)
        let settled = proceed ? waiter.wait(seconds: settleSeconds) : nil
        lock.withLock { waiting[key] = nil }
        control.removeObserver(token)
        return settled ?? control.status
    }
}
