/// An array kept in fixed-size chunks, appended at the back and dropped from the front. A
/// history of hundreds of thousands of fixes grows without the peaks of a doubling array (old
/// and new buffer alive together while it copies) and wastes at most one chunk's free tail; a
/// window that slides (the smoother's) frees whole chunks as its front moves past them.
struct ChunkedArray<Element: Sendable>: Sendable {
    /// Elements per chunk; a power of two, so that an index splits with a shift and a mask. As
    /// many as the smoother settles at a time (`SmootherHistory.defaultBlockSteps`), so that
    /// each settled block frees a whole chunk of its window.
    static var chunkShift: Int { 11 }
    private static var chunkSize: Int { 1 << chunkShift }
    private var chunks: [[Element]] = []
    /// Elements dropped from the front of the first chunk (its slots stay until it is freed).
    private var offset = 0
    private(set) var count = 0

    init() {}

    var isEmpty: Bool { count == 0 }
    var first: Element? { isEmpty ? nil : self[0] }
    var last: Element? { isEmpty ? nil : self[count - 1] }
    /// 0..<count.
    var indices: Range<Int> { 0..<count }
    /// Elements held in memory, dropped ones included until their chunk is freed.
    var allocatedCount: Int { chunks.count << Self.chunkShift }

    mutating func append(_ element: Element) {
        if (offset + count) & (Self.chunkSize - 1) == 0 {
            var chunk: [Element] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }

    /// Drops the first `n` elements (at most `count`); a chunk is freed once all of it is dropped.
    mutating func removeFirst(_ n: Int) {
        let n = min(max(0, n), count)
        offset += n
        count -= n
        while offset >= Self.chunkSize || (count == 0 && !chunks.isEmpty) {
            chunks.removeFirst()
            offset = max(0, offset - Self.chunkSize)
        }
        if chunks.isEmpty { offset = 0 }
    }

    subscript(index: Int) -> Element {
        let i = index + offset
        return chunks[i >> Self.chunkShift][i & (Self.chunkSize - 1)]
    }

    /// The elements mapped, in order, into a plain array.
    func map<T>(_ transform: (Element) throws -> T) rethrows -> [T] {
        var result: [T] = []
        result.reserveCapacity(count)
        for index in indices { result.append(try transform(self[index])) }
        return result
    }

    /// Whether any element satisfies `predicate`.
    func contains(where predicate: (Element) throws -> Bool) rethrows -> Bool {
        for index in indices where try predicate(self[index]) { return true }
        return false
    }
}
