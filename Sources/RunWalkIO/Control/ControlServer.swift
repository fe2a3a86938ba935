import Dispatch
import FoundationEssentials
import RunWalkRuntime
#if canImport(Glibc)
import Glibc
#endif

/// Lets `runwalk control` (and scripts, status bars) reach the running session through a Unix
/// socket: one request line in, one JSON line out, then the connection closes.
///
/// One thread waits in poll(2) on the listening socket and a wake pipe, with no timeout, so an
/// idle server never wakes the CPU; `stop()` writes to the pipe and the thread ends at once.
/// Clients are served one at a time, each with a read timeout.
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

    private let lock = Lock()
    private var wakeWrite: Int32 = -1
    private var finished: DispatchSemaphore?
    private var socketIdentity: (device: UInt64, inode: UInt64)?
    private var waiting: SettleWaiter?
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
            let server = ControlServer(control: control, path: try ControlSocketPath.resolve(environment: environment, create: true))
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
        let (wake, done, identity, waiter): (Int32, DispatchSemaphore?, (device: UInt64, inode: UInt64)?, SettleWaiter?) = lock.withLock {
            // Never started, or stopped already: nothing to do.
            guard !stopped, finished != nil else { return (-1, nil, nil, nil) }
            defer { stopped = true; wakeWrite = -1 }
            return (wakeWrite, finished, socketIdentity, waiting)
        }
        guard let done else { return true }
        waiter?.cancel()
        var byte: UInt8 = 1
        _ = write(wake, &byte, 1)
        let ended = done.wait(timeout: .now() + timeoutSeconds) == .success
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

    private func acceptLoop(listener: Int32, wakeRead: Int32) {
        while true {
            var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            // No timeout: asleep until a client or stop().
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            guard fds[0].revents & Int16(POLLIN) != 0 else { continue }
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == EAGAIN || errno == ECONNABORTED { continue }
                // Out of descriptors: the listener stays readable, so back off (on the wake
                // pipe, so stop() still ends it) instead of spinning.
                var wakeOnly = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
                if poll(&wakeOnly, 1, 1000) > 0 { return }
                continue
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            serve(client, wakeRead: wakeRead)
            close(client)
        }
    }

    private func serve(_ client: Int32, wakeRead: Int32) {
        let response: ControlResponse
        switch UnixSocket.readLine(client, limit: Self.requestLimit, timeoutSeconds: readTimeoutSeconds, cancelFD: wakeRead) {
        case .line(let bytes): response = answer(bytes)
        case .endOfFile(let bytes) where !bytes.isEmpty: response = answer(bytes)
        case .endOfFile, .failed: return  // a probe (connect and close) or a client gone: nobody to answer
        case .timedOut: response = .failure(ControlProtocolError.noRequest(afterSeconds: readTimeoutSeconds).description)
        case .tooLong: response = .failure(ControlProtocolError.tooLong(limit: Self.requestLimit).description)
        case .cancelled: response = .failure("the session is ending")
        }
        _ = UnixSocket.writeAll(client, Array((response.encoded() + "\n").utf8))
    }

    private func answer(_ bytes: [UInt8]) -> ControlResponse {
        switch ControlRequest.parse(bytes) {
        case .failure(let error): return .failure(error.description)
        case .success(.status): return .ok(control.status)
        case .success(.command(let command)):
            if control.hasEnded {
                // The front end is still finishing (the summary is written): a stop reaches it and
                // ends it (`SessionControl.afterEnd`).
                if command == .stop {
                    control.send(command)
                    return .ok(control.status)
                }
                return .failure("the session has ended; \(command.rawValue) was not sent")
            }
            return .ok(sendAndSettle(command))
        }
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
        let proceed: Bool = lock.withLock {
            guard !stopped else { return false }
            waiting = waiter
            return true
        }
        control.send(command)
        let settled = proceed ? waiter.wait(seconds: settleSeconds) : nil
        lock.withLock { waiting = nil }
        control.removeObserver(token)
        return settled ?? control.status
    }
}

/// Waits for the first status that passes a test; `cancel()` ends the wait early.
private final class SettleWaiter: @unchecked Sendable {
    private let accepts: @Sendable (SessionStatus) -> Bool
    private let signal = DispatchSemaphore(value: 0)
    private let lock = Lock()
    private var settled: SessionStatus?
    private var done = false

    init(_ accepts: @escaping @Sendable (SessionStatus) -> Bool) { self.accepts = accepts }

    /// Called on the publishing thread: quick, no waiting.
    func offer(_ status: SessionStatus) {
        let first: Bool = lock.withLock {
            guard !done, accepts(status) else { return false }
            settled = status
            done = true
            return true
        }
        if first { signal.signal() }
    }

    func cancel() {
        let first: Bool = lock.withLock {
            defer { done = true }
            return !done
        }
        if first { signal.signal() }
    }

    func wait(seconds: Double) -> SessionStatus? {
        _ = signal.wait(timeout: .now() + seconds)
        return lock.withLock { settled }
    }
}
