import Foundation

/// Pixel statistics of a PNG, computed by a small Python decoder (zlib + the five PNG row
/// filters, standard library only): size, distinct colours, the share of pixels that are not
/// the background, and how many pixels are near each named colour.
enum PNGStats {
    struct Result: Decodable {
        var width: Int
        var height: Int
        var distinct: Int
        var background: [Int]
        var non_background: Double
        var counts: [String: Int]
    }

    static func measure(_ png: URL, colours: [String: [Int]]) async throws -> Result {
        guard let python = Tool.python else { throw CocoaError(.featureUnsupported) }
        let targets = String(decoding: try JSONEncoder().encode(colours), as: UTF8.self)
        let result = try await Tool.run(python, ["-c", script, png.path, targets])
        guard result.status == 0 else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: result.stderr]) }
        return try JSONDecoder().decode(Result.self, from: Data(result.stdout.utf8))
    }

    static let script = #"""
import json, struct, sys, zlib
def decode(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, [], None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), (depth, ctype)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + n
    raw = zlib.decompress(b"".join(idat))
    stride = w * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride): line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif f == 3:
            for i in range(stride): line[i] = (line[i] + ((line[i - bpp] if i >= bpp else 0) + prev[i]) // 2) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0; b = prev[i]; c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c; pa = abs(p - a); pb = abs(p - b); pc = abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line)); prev = line
    return w, h, bpp, rows
w, h, bpp, rows = decode(sys.argv[1])
targets = json.loads(sys.argv[2])
counts = {k: 0 for k in targets}
colours = {}
bg = None
for row in rows:
    for x in range(0, len(row), bpp * 2):
        px = (row[x], row[x + 1], row[x + 2])
        colours[px] = colours.get(px, 0) + 1
bg = max(colours, key=colours.get)
total = sum(colours.values())
for px, n in colours.items():
    for k, t in targets.items():
        if abs(px[0] - t[0]) <= 24 and abs(px[1] - t[1]) <= 24 and abs(px[2] - t[2]) <= 24: counts[k] += n
print(json.dumps({"width": w, "height": h, "distinct": len(colours), "background": bg,
                  "non_background": 1 - colours[bg] / total, "counts": counts}))
"""#
}
