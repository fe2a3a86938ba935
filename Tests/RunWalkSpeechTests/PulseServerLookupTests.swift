import Testing
@testable import RunWalkSpeech

/// The check that spares loading libpulse when no server can be found (issue 18: RSS).
@Suite("PulseServerLookup")
struct PulseServerLookupTests {
    /// A lookup over a made-up machine: `files` maps paths to contents (sockets and folders too).
    static func lookup(_ environment: [String: String], _ files: [String: String] = [:]) -> PulseServerLookup {
        PulseServerLookup(environment: environment,
                          exists: { files[$0] != nil },
                          contents: { files[$0] },
                          names: { folder in files.keys.filter { $0.hasPrefix(folder + "/") }.map { String($0.dropFirst(folder.count + 1)) } })
    }

    static let headless = ["HOME": "/home/pi", "XDG_RUNTIME_DIR": "/run/user/1000"]

    @Test("a headless login with no server anywhere: no server, and the reason names the socket looked for")
    func headlessHasNone() {
        let reason = Self.lookup(Self.headless, ["/etc/pulse/client.conf": "; default-server =\n# autospawn = yes\n"]).noServerReason()
        #expect(reason == "no server socket at /run/user/1000/pulse/native or /var/run/pulse/native")
    }

    @Test("libpulse is asked whenever a server may be found", arguments: [
        (["PULSE_SERVER": "unix:/tmp/s"], [String: String]()),
        (["DISPLAY": ":0"], [:]),
        (["PULSE_CLIENTCONFIG": "/tmp/client.conf"], [:]),
        ([:], ["/run/user/1000/pulse/native": ""]),
        ([:], ["/var/run/pulse/native": ""]),
        ([:], ["/etc/pulse/client.conf": "default-server = tcp:speaker.local\n"]),
        ([:], ["/etc/pulse/client.conf.d/10-net.conf": " auto-connect-localhost = yes\n"]),
        ([:], ["/home/pi/.config/pulse/client.conf": "default-server=unix:/srv/pulse\n"]),
        (["PULSE_RUNTIME_PATH": "/srv/pulse"], ["/srv/pulse/native": ""]),
    ])
    func mayHaveServer(extra: [String: String], files: [String: String]) {
        let environment = Self.headless.merging(extra) { _, new in new }
        #expect(Self.lookup(environment, files).noServerReason() == nil, "\(extra) \(files)")
    }

    @Test("without XDG_RUNTIME_DIR, libpulse's runtime link in the config folder counts as a possible server")
    func runtimeLinkWithoutXDG() {
        #expect(Self.lookup(["HOME": "/home/pi"], ["/home/pi/.config/pulse/0123abcd-runtime": ""]).noServerReason() == nil)
        #expect(Self.lookup(["HOME": "/home/pi"]).noServerReason() == "no server socket at /run/pulse/native or /var/run/pulse/native")
    }

    @Test("client.conf lines that name no server do not count", arguments: [
        "; default-server = tcp:x\n", "# default-server = tcp:x\n", "default-server =\n", "auto-connect-localhost = no\n", "autospawn = yes\n",
    ])
    func confWithoutServer(text: String) {
        #expect(!PulseServerLookup.pointsAtServer(text), "\(text)")
    }
}
