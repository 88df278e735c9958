import CMalloc

/// Keeps the allocator's free memory from piling up over a long copy.
///
/// With glibc every thread that allocates may get an arena of its own (up to eight a core), and what is freed
/// stays in its arena. A copy of many files allocates on many copy threads (the hashers' buffers, the
/// machines, the tasks) and frees on others, so the arenas fragment: the process grew with the number of
/// files copied although what it holds did not (a tree of 100,000 empty files: 16 MB live at the peak, 63 MB
/// resident at the end). Two arenas, and a trim now and then, keep the resident size near what is live (35 MB
/// there). Elsewhere both do nothing.
enum FreePages {
    /// How many settled transfers pass between two trims: a trim walks every arena, a millisecond or so.
    static let settledTransfersPerTrim = 1024

    /// Limits the allocator to two arenas, before the copy threads start.
    static func limitArenas() {
        #if canImport(Glibc)
        _ = mallopt(M_ARENA_MAX, 2)
        #endif
    }

    /// Returns the allocator's free pages to the system.
    static func release() {
        #if canImport(Glibc)
        _ = malloc_trim(0)
        #endif
    }
}
