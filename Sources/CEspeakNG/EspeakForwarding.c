// One forwarding function for each espeak-ng function RunWalkSpeech calls, under the same name
// and prototype (the header's declaration checks it), resolved from libespeak-ng.so.1 on first use.
#include "CEspeakNG.h"

#include <pthread.h>

#include "CLazyLibrary.h"

// The forwarders are for this program only: never exported, so they cannot stand in for
// espeak-ng's own functions for a library that links it.
#define RW_HIDDEN __attribute__((visibility("hidden")))

// R(result type, name, parameters, arguments, value returned when libespeak-ng is missing)
// V(name, parameters, arguments) for functions returning nothing.
#define RW_ESPEAK_FUNCTIONS(R, V) \
    V(espeak_ng_InitializePath, (const char *path), (path)) \
    R(espeak_ng_STATUS, espeak_ng_Initialize, (espeak_ng_ERROR_CONTEXT *context), (context), ENS_NOT_INITIALIZED) \
    R(espeak_ng_STATUS, espeak_ng_InitializeOutput, (espeak_ng_OUTPUT_MODE output_mode, int buffer_length, const char *device), \
      (output_mode, buffer_length, device), ENS_NOT_INITIALIZED) \
    V(espeak_SetSynthCallback, (t_espeak_callback *SynthCallback), (SynthCallback)) \
    R(espeak_ng_STATUS, espeak_ng_SetVoiceByName, (const char *name), (name), ENS_NOT_INITIALIZED) \
    R(espeak_ng_STATUS, espeak_ng_Synthesize, \
      (const void *text, size_t size, unsigned int position, espeak_POSITION_TYPE position_type, unsigned int end_position, \
       unsigned int flags, unsigned int *unique_identifier, void *user_data), \
      (text, size, position, position_type, end_position, flags, unique_identifier, user_data), ENS_NOT_INITIALIZED) \
    V(espeak_ng_GetStatusCodeMessage, (espeak_ng_STATUS status, char *buffer, size_t length), (status, buffer, length))

#define RW_INDEX_R(type, name, parameters, arguments, fallback) rw_index_##name,
#define RW_INDEX_V(name, parameters, arguments) rw_index_##name,
enum { RW_ESPEAK_FUNCTIONS(RW_INDEX_R, RW_INDEX_V) rw_espeak_function_count };

#define RW_NAME_R(type, name, parameters, arguments, fallback) #name,
#define RW_NAME_V(name, parameters, arguments) #name,
static const char *const names[] = { RW_ESPEAK_FUNCTIONS(RW_NAME_R, RW_NAME_V) };

static void *slots[rw_espeak_function_count];
static rw_lazy_library library = { "libespeak-ng.so.1", names, slots, rw_espeak_function_count, 0, "" };
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void open_library(void) { rw_lazy_library_open(&library); }

int rw_espeak_load(void) {
    // pthread_once also publishes the filled slots to every thread that calls it afterwards.
    pthread_once(&once, open_library);
    return library.loaded;
}

const char *rw_espeak_load_error(void) {
    pthread_once(&once, open_library);
    return library.error;
}

// Each forwarder calls through a pointer of the header's own type for the function.
#define RW_FORWARD_R(type, name, parameters, arguments, fallback) \
    RW_HIDDEN type name parameters { \
        if (!rw_espeak_load()) return fallback; \
        return ((__typeof__(&name))slots[rw_index_##name]) arguments; \
    }
#define RW_FORWARD_V(name, parameters, arguments) \
    RW_HIDDEN void name parameters { \
        if (!rw_espeak_load()) return; \
        ((__typeof__(&name))slots[rw_index_##name]) arguments; \
    }
RW_ESPEAK_FUNCTIONS(RW_FORWARD_R, RW_FORWARD_V)
