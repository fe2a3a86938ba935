/// An append-only array kept in fixed-size chunks. A history of hundreds of thousands of
/// fixes grows without the peaks of a doubling array (old and new buffer alive together while
/// it copies) and wastes at most one chunk's free tail.
struct ChunkedArray<Element: Sendable>: Sendable {
    /// Elements per chunk; a power of two, so that an index splits with a shift and a mask.
    static var chunkShift: Int { 12 }
    private static var chunkSize: Int { 1 << chunkShift }
    private var chunks: [[Element]] = []
    private(set) var count = 0

    init() {}

    var isEmpty: Bool { count == 0 }
    var first: Element? { isEmpty ? nil : self[0] }
    var last: Element? { isEmpty ? nil : self[count - 1] }
    /// 0..<count.
    var indices: Range<Int> { 0..<count }

    mutating func append(_ element: Element) {
        if count & (Self.chunkSize - 1) == 0 {
            var chunk: [Element] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }

    subscript(index: Int) -> Element {
        chunks[index >> Self.chunkShift][index & (Self.chunkSize - 1)]
    }

    /// The elements mapped, in order, into a plain array.
    func map<T>(_ transform: (Element) throws -> T) rethrows -> [T] {
        var result: [T] = []
        result.reserveCapacity(count)
        for chunk in chunks {
            for element in chunk { result.append(try transform(element)) }
        }
        return result
    }

    /// Whether any element satisfies `predicate`.
    func contains(where predicate: (Element) throws -> Bool) rethrows -> Bool {
        for chunk in chunks where try chunk.contains(where: predicate) { return true }
        return false
    }
}
