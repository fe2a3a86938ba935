#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The signal mask a parent passed on through exec, cleared before anything else runs.
///
/// A blocked mask survives exec, and a threaded parent (a test runner's worker thread, some
/// service managers and language runtimes) can start runwalk with SIGTERM, SIGINT and most
/// other signals blocked; `script` and `sudo` pass it on as they got it. Then a command waiting
/// at a prompt (`session rm` asking "[y/N]") ignored SIGTERM and Ctrl-C alike, and only SIGKILL
/// ended it. From a shell the mask is empty; runwalk starts from that state whoever starts it.
///
/// Dispositions are left alone: SIGINT ignored by `nohup` or for a background job is meant so.
enum InheritedSignalMask {
    /// Unblocks every signal on the calling thread. Call it first in `main`, before any thread
    /// starts: threads take their mask from the thread that starts them.
    static func clear() {
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
    }
}
