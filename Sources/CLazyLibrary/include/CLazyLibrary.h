// A shared library opened on first use, with the functions a forwarding module resolves from
// it: libpulse and libespeak-ng are mapped only by the processes that speak (issue 18, RSS).
// Used by the C modules CPulse and CEspeakNG only; Swift never imports it.
#ifndef RW_LAZY_LIBRARY_H
#define RW_LAZY_LIBRARY_H

#include <stddef.h>

/// A library to open by soname, the functions wanted from it and where their addresses go.
typedef struct rw_lazy_library {
    /// The soname to open, e.g. "libpulse.so.0".
    const char *soname;
    /// The names of the functions to resolve, `count` of them.
    const char *const *names;
    /// Where each function's address goes, in the order of `names`.
    void **slots;
    /// How many functions.
    size_t count;
    /// Set by rw_lazy_library_open: 1 when the library and every function were found.
    int loaded;
    /// Why not (the dynamic linker's words), empty when loaded.
    char error[512];
} rw_lazy_library;

/// Opens the library and fills every slot; on any failure no slot is set and `error` says why.
/// Not thread-safe by itself: callers run it once under pthread_once.
void rw_lazy_library_open(rw_lazy_library *library);

#endif
