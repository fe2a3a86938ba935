#if canImport(Glibc)
import Glibc
#endif

/// Makes glibc's malloc give large freed blocks back to the kernel, so that a live run's
/// resident memory follows what it holds rather than the largest it once held.
///
/// glibc serves a block of 128 kB or more with its own mapping and unmaps it when it is freed,
/// but the first time such a block is freed it raises that threshold to the block's size (up
/// to 32 MB): from then on, synthesised speech clips, the smoother's window chunks and a
/// replay's buffers come from the heap, and what they leave behind stays resident. Measured on
/// a paced 25-minute speaking run (issue 18): resident memory rose in steps of 0.5 MB after
/// kilometre cues and settled 0.4 MB higher than with the threshold held at 128 kB.
enum MemoryReturn {
    /// Holds the mapping threshold (and with it the heap's trim threshold) at 128 kB. Call it
    /// first in `main`; a `MALLOC_MMAP_THRESHOLD_` in the environment is left to win.
    static func holdMappingThreshold() {
        #if canImport(Glibc)
        guard getenv("MALLOC_MMAP_THRESHOLD_") == nil else { return }
        _ = glibcMallopt(mmapThreshold, 128 * 1024)
        _ = glibcMallopt(trimThreshold, 128 * 1024)
        #endif
    }

    #if canImport(Glibc)
    // <malloc.h> is not part of Swift's Glibc module: mallopt(3) and its two parameters as
    // glibc's header defines them.
    private static let trimThreshold: Int32 = -1 // M_TRIM_THRESHOLD
    private static let mmapThreshold: Int32 = -3 // M_MMAP_THRESHOLD
    #endif
}

#if canImport(Glibc)
@_silgen_name("mallopt")
private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif
