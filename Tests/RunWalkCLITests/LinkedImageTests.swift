import Foundation
import Testing
import RunWalkTestSupport

/// How `runwalk` is linked (Package.swift: lld, packed relative relocations, no exported
/// symbols) is part of its memory at run time (issue 18): every run maps and reads its
/// relocation and dynamic symbol tables at start-up, and exports keep dead code alive.
@Suite("runwalk's linked image (readelf)")
struct LinkedImageTests {
    static let readelf = ["/usr/bin/readelf", "/bin/readelf"].first { FileManager.default.isExecutableFile(atPath: $0) }

    static func readelf(_ arguments: [String]) throws -> String {
        let result = try ChildProcess.run(try #require(readelf), arguments + [RunWalkBinary.url.path], seconds: 60)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    @Test("packed relative relocations, and no symbol of its own exported", .enabled(if: readelf != nil, "needs binutils' readelf"))
    func packedAndUnexported() throws {
        let dynamic = try Self.readelf(["-d", "-W"])
        #expect(dynamic.contains("(RELR)"), "no DT_RELR: linked without -z pack-relative-relocs?\n\(dynamic)")
        // The dynamic symbol table keeps what runwalk imports (undefined, section UND) and nothing it defines.
        let symbols = try Self.readelf(["--dyn-syms", "-W"]).split(separator: "\n").filter { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return fields.count >= 8 && fields[0].hasSuffix(":") && fields[6] != "UND" && fields[6] != "Ndx"
                && (fields[4] == "GLOBAL" || fields[4] == "WEAK") && fields[7].hasPrefix("$s")
        }
        #expect(symbols.count == 0, "Swift symbols exported, e.g. \(symbols.prefix(3))")
    }
}
