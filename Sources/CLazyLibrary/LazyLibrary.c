#include "CLazyLibrary.h"

#include <dlfcn.h>
#include <stdio.h>

void rw_lazy_library_open(rw_lazy_library *library) {
    library->loaded = 0;
    library->error[0] = '\0';
    // RTLD_LOCAL keeps the library's symbols out of the global scope: they can neither shadow
    // nor be shadowed by the forwarding functions of the same names in this program.
    void *handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(library->error, sizeof library->error, "%s", reason != NULL ? reason : "cannot be loaded");
        return;
    }
    for (size_t index = 0; index < library->count; index++) {
        void *address = dlsym(handle, library->names[index]);
        if (address == NULL) {
            // An older library without a function we call: refuse it whole rather than crash later.
            snprintf(library->error, sizeof library->error, "%s has no function %s", library->soname, library->names[index]);
            for (size_t filled = 0; filled < index; filled++) library->slots[filled] = NULL;
            dlclose(handle);
            return;
        }
        library->slots[index] = address;
    }
    // The handle stays open for the life of the process: the slots point into the library.
    library->loaded = 1;
}
