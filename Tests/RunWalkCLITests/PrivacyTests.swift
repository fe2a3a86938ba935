import Foundation
import Testing

/// Issue 18, "Privacy": the data and config folders are the runner's alone, whatever the umask,
/// and `-o` respects what is at the path.
@Suite("privacy of folders, files and -o (end to end)", .serialized)
struct PrivacyTests {
    @Test("with umask 000 the data and config folders (and those on the way) are 0700, their files 0600")
    func ownerOnlyWhateverTheUmask() throws {
        let folder = try TemporaryDataFolder()
        let data = folder.url.appendingPathComponent("on/the/way")
        let script = """
            umask 000
            export RUNWALK_DATA_DIR=\(data.path)
            "$RUNWALK" replay \(Sample.demo) --workout '\(Sample.demoWorkout)' > /dev/null &&
            "$RUNWALK" workouts add easy '10x(1m run, 1m walk)'
            """
        let result = try folder.shell(script)
        #expect(result.status == 0, "\(result.stderr)")
        for path in ["on", "on/the", "on/the/way", "on/the/way/locks"] {
            #expect(folder.mode(folder.url.appendingPathComponent(path).path) == 0o700, "\(path)")
        }
        #expect(folder.mode(data.path + "/runwalk.sqlite") == 0o600)
        #expect(folder.mode(folder.configURL.path) == 0o700)
        #expect(folder.mode(folder.configURL.path + "/workouts.txt") == 0o600)
        // While a recorder holds the database, its -wal and -shm exist: they take its mode.
        let wal = try folder.shell("""
            umask 000; export RUNWALK_DATA_DIR=\(data.path)
            "$RUNWALK" replay \(Sample.loop) --workout '\(Sample.loopWorkout)' --speed 100 > /dev/null & pid=$!
            for i in $(seq 1 200); do [ -e \(data.path)/runwalk.sqlite-wal ] && break; sleep 0.05; done
            stat -c %a \(data.path)/runwalk.sqlite-wal \(data.path)/runwalk.sqlite-shm; kill $pid; wait $pid
            """)
        #expect(wal.stdout == "600\n600\n", "\(wal.stderr)")
    }

    @Test("existing loose folders and files are tightened, and it is said once")
    func looseOnesTightened() throws {
        let folder = try TemporaryDataFolder()
        try folder.recordDemo()
        let database = folder.location.databasePath
        chmod(folder.url.path, 0o755)
        chmod(database, 0o644)
        let first = try folder.run(["history"])
        #expect(first.status == 0)
        #expect(first.stderr.components(separatedBy: "readable by you alone").count == 2, "\(first.stderr)")
        #expect(folder.mode(folder.url.path) == 0o700)
        #expect(folder.mode(database) == 0o600)
        let second = try folder.run(["history"])
        #expect(second.stderr.isEmpty, "said once: \(second.stderr)")
    }

    @Test("-o: a new file is 0600, an existing one keeps its mode, a symlink is followed, /dev/full is an error")
    func outputFile() throws {
        let folder = try TemporaryDataFolder()
        try folder.recordDemo()
        let new = folder.url.appendingPathComponent("new.gpx").path
        var result = try folder.shell("umask 000; \"$RUNWALK\" export --format gpx -o \(new)")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(folder.mode(new) == 0o600, "a GPS track is private")

        let existing = folder.url.appendingPathComponent("existing.gpx").path
        FileManager.default.createFile(atPath: existing, contents: Data("old".utf8))
        chmod(existing, 0o640)
        result = try folder.run(["export", "--format", "gpx", "-o", existing])
        #expect(result.status == 0)
        #expect(folder.mode(existing) == 0o640)
        #expect(try String(contentsOfFile: existing, encoding: .utf8).contains("<gpx"))

        let target = folder.url.appendingPathComponent("target.html").path
        let link = folder.url.appendingPathComponent("link.html").path
        FileManager.default.createFile(atPath: target, contents: Data())
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        result = try folder.run(["report", "--format", "html", "-o", link])
        #expect(result.status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target, "the link is still a link")
        #expect(try String(contentsOfFile: target, encoding: .utf8).contains("<html"))

        result = try folder.run(["report", "-o", "/dev/full"])
        #expect(result.status == 1)
        #expect(result.stderr == "runwalk: error: cannot write /dev/full: no space left on device\n")
        var info = stat()
        #expect(stat("/dev/full", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR, "the device is still a device")

        result = try folder.run(["report", "--format", "json", "-o", "-"])
        #expect(result.status == 0 && result.stdout.hasPrefix("{"))
    }

    @Test("-o into a FIFO writes into it rather than replacing it")
    func outputFIFO() throws {
        let folder = try TemporaryDataFolder()
        try folder.recordDemo()
        let fifo = folder.url.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let result = try folder.shell("cat \(fifo) > \(fifo).out & \"$RUNWALK\" workouts export -o \(fifo); wait")
        #expect(result.status == 0, "\(result.stderr)")
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
        #expect(try String(contentsOfFile: fifo + ".out", encoding: .utf8).hasPrefix("# RunWalk workouts"))
    }
}
