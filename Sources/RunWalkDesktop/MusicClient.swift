import CGio
import FoundationEssentials

/// What the runner's music player plays now.
public struct NowPlaying: Sendable, Equatable {
    /// The player's bus name, e.g. `org.mpris.MediaPlayer2.mpv`.
    public var player: String
    public var title: String?
    public var artist: String?
    /// `Playing`, `Paused` or `Stopped`.
    public var playbackStatus: String?

    /// A player's state as read from its properties.
    public init(player: String, title: String? = nil, artist: String? = nil, playbackStatus: String? = nil) {
        self.player = player
        self.title = title
        self.artist = artist
        self.playbackStatus = playbackStatus
    }

    /// "Title — Artist" (or whichever is known), for a one-line display.
    public var line: String? {
        switch (title?.isEmpty == false ? title : nil, artist?.isEmpty == false ? artist : nil) {
        case let (title?, artist?): return "\(title) — \(artist)"
        case let (title?, nil): return title
        case let (nil, artist?): return artist
        case (nil, nil): return nil
        }
    }
}

/// The runner's music player as a front end commands it: play/pause and next track.
public struct MusicPlayer: Sendable {
    fileprivate let client: MusicClient
    fileprivate let thread: GLibThread

    init(client: MusicClient, thread: GLibThread) {
        self.client = client
        self.thread = thread
    }

    /// What it plays now (nil when no player is followed).
    public var nowPlaying: NowPlaying? { thread.sync { client.nowPlaying } }
    /// Play/pause on the player.
    public func playPause() { thread.async { [client] in client.command("PlayPause") } }
    /// The player's next track.
    public func next() { thread.async { [client] in client.command("Next") } }
}

/// An MPRIS client of the other media players on the session bus: follows the first one
/// (or the one that appears later), reads its title and artist, opens `--music` on it.
final class MusicClient: @unchecked Sendable {
    private static let prefix = "org.mpris.MediaPlayer2."
    private static let path = "/org/mpris/MediaPlayer2"
    private static let player = "org.mpris.MediaPlayer2.Player"
    private let bus: BusConnection
    private let ownName: String?
    private var uri: String?
    private let warn: @Sendable (String) -> Void
    private var followed: (name: String, owner: String)?
    private var propertiesSubscription: guint = 0
    private var ownersSubscription: guint = 0
    private var observers: [@Sendable (NowPlaying?) -> Void] = []
    private(set) var nowPlaying: NowPlaying?

    private init(bus: BusConnection, ownName: String?, uri: String?, warn: @escaping @Sendable (String) -> Void) {
        self.bus = bus
        self.ownName = ownName
        self.uri = uri
        self.warn = warn
    }

    /// Starts following; with `uri`, opens it on the first player (saying so once when there is none).
    static func start(bus: BusConnection, ownName: String?, uri: String?, warn: @escaping @Sendable (String) -> Void) -> MusicClient {
        let client = MusicClient(bus: bus, ownName: ownName, uri: uri.map(Self.uri(for:)), warn: warn)
        let me = Unmanaged.passUnretained(client).toOpaque()
        client.ownersSubscription = g_dbus_connection_signal_subscribe(
            bus.connection, "org.freedesktop.DBus", "org.freedesktop.DBus", "NameOwnerChanged", "/org/freedesktop/DBus", nil,
            G_DBUS_SIGNAL_FLAGS_NONE, musicOwnerChanged, me, nil)
        client.follow(client.players().first)
        if client.followed == nil, let uri = client.uri {
            warn("runwalk: --music \(uri): no music player (MPRIS) on the session bus; start one (e.g. mpv with mpv-mpris)")
            client.uri = nil
        }
        return client
    }

    /// A file path becomes a `file://` URI; URIs are kept.
    static func uri(for text: String) -> String {
        if text.contains("://") { return text }
        let path = text.hasPrefix("/") ? text : FileManager.default.currentDirectoryPath + "/" + text
        return URL(fileURLWithPath: path).absoluteString
    }

    /// MPRIS players on the bus but our own, by name.
    private func players() -> [String] {
        guard case .success(let reply) = bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListNames", nil),
              let names = GV.child(reply, 0) else { return [] }
        defer { g_variant_unref(reply); g_variant_unref(names) }
        var found: [String] = []
        for index in 0..<Int(g_variant_n_children(names)) {
            guard let child = GV.child(names, index) else { continue }
            if let name = GV.text(child), name.hasPrefix(Self.prefix), name != ownName, !name.hasPrefix(Self.prefix + "runwalk") {
                found.append(name)
            }
            g_variant_unref(child)
        }
        return found.sorted()
    }

    private func follow(_ name: String?) {
        if propertiesSubscription != 0 { g_dbus_connection_signal_unsubscribe(bus.connection, propertiesSubscription) }
        propertiesSubscription = 0
        followed = nil
        guard let name, let owner = owner(of: name) else { return publish(nil) }
        followed = (name, owner)
        // Signals come from the unique name: subscribing to it avoids GDBus's well-known-name race.
        propertiesSubscription = g_dbus_connection_signal_subscribe(
            bus.connection, owner, "org.freedesktop.DBus.Properties", "PropertiesChanged", Self.path, Self.player,
            G_DBUS_SIGNAL_FLAGS_NONE, musicPropertiesChanged, Unmanaged.passUnretained(self).toOpaque(), nil)
        if let uri {
            self.uri = nil
            command("OpenUri", GV.tuple([GV.string(uri)]))
            // A paused player stays paused after OpenUri (mpv does): the runner asked for music.
            command("Play")
        }
        refresh()
    }

    private func owner(of name: String) -> String? {
        guard case .success(let reply) = bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                  "GetNameOwner", GV.tuple([GV.string(name)])),
              let owner = GV.child(reply, 0) else { return nil }
        defer { g_variant_unref(reply); g_variant_unref(owner) }
        return GV.text(owner)
    }

    /// Reads the followed player's metadata and status.
    fileprivate func refresh() {
        guard let followed, case .success(let reply) = bus.call(
            followed.owner, Self.path, "org.freedesktop.DBus.Properties", "GetAll", GV.tuple([GV.string(Self.player)])),
              let properties = GV.child(reply, 0) else { return }
        defer { g_variant_unref(reply); g_variant_unref(properties) }
        var state = NowPlaying(player: followed.name)
        if let metadata = GV.lookup(properties, "Metadata") {
            if let title = GV.lookup(metadata, "xesam:title") { state.title = GV.text(title); g_variant_unref(title) }
            if let artist = GV.lookup(metadata, "xesam:artist") { state.artist = GV.firstText(artist); g_variant_unref(artist) }
            g_variant_unref(metadata)
        }
        if let status = GV.lookup(properties, "PlaybackStatus") { state.playbackStatus = GV.text(status); g_variant_unref(status) }
        publish(state)
    }

    private func publish(_ state: NowPlaying?) {
        guard state != nowPlaying else { return }
        nowPlaying = state
        for observer in observers { observer(state) }
    }

    fileprivate func ownerChanged(name: String, newOwner: String) {
        guard name.hasPrefix(Self.prefix), name != ownName, !name.hasPrefix(Self.prefix + "runwalk") else { return }
        if let followed, followed.name == name, newOwner != followed.owner {
            follow(newOwner.isEmpty ? players().first : name)
        } else if followed == nil, !newOwner.isEmpty {
            follow(name)
        }
    }

    /// Adds an observer of what plays; called at once with the current state.
    func observe(_ handler: @escaping @Sendable (NowPlaying?) -> Void) {
        observers.append(handler)
        handler(nowPlaying)
    }

    /// Sends a Player method to the followed player without waiting for it.
    func command(_ method: String, _ parameters: OpaquePointer? = nil) {
        guard let followed else { return }
        bus.send(followed.owner, Self.path, Self.player, method, parameters)
    }

    /// Pauses the followed player (and waits, so it is paused before the session's bus closes).
    func pause() {
        guard let followed, case .success(let reply) = bus.call(followed.owner, Self.path, Self.player, "Pause", nil) else { return }
        g_variant_unref(reply)
    }

    /// Stops following.
    func stop() {
        for id in [propertiesSubscription, ownersSubscription] where id != 0 { g_dbus_connection_signal_unsubscribe(bus.connection, id) }
        propertiesSubscription = 0
        ownersSubscription = 0
        observers = []
    }
}

private let musicPropertiesChanged: GDBusSignalCallback = { _, _, _, _, _, _, userData in
    guard let userData else { return }
    // Re-read all: players send partial changes (a title without its artist, a status alone).
    Unmanaged<MusicClient>.fromOpaque(userData).takeUnretainedValue().refresh()
}

private let musicOwnerChanged: GDBusSignalCallback = { _, _, _, _, _, parameters, userData in
    guard let userData, let parameters, let name = GV.child(parameters, 0), let owner = GV.child(parameters, 2) else { return }
    defer { g_variant_unref(name); g_variant_unref(owner) }
    Unmanaged<MusicClient>.fromOpaque(userData).takeUnretainedValue().ownerChanged(name: GV.text(name) ?? "", newOwner: GV.text(owner) ?? "")
}
