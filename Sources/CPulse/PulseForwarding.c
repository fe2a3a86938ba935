// One forwarding function for each libpulse function RunWalkSpeech calls, under the same name
// and prototype (the header's declaration checks it), resolved from libpulse.so.0 on first use.
#include "CPulse.h"

#include <pthread.h>

#include "CLazyLibrary.h"

// The forwarders are for this program only: never exported, so they cannot stand in for
// libpulse's own functions for a library that links libpulse.
#define RW_HIDDEN __attribute__((visibility("hidden")))

// R(result type, name, parameters, arguments, value returned when libpulse is missing)
// V(name, parameters, arguments) for functions returning nothing.
// The fallbacks are what each function returns on failure, so a caller that skipped
// rw_pulse_load sees an error, never a crash.
#define RW_PULSE_FUNCTIONS(R, V) \
    R(pa_threaded_mainloop *, pa_threaded_mainloop_new, (void), (), NULL) \
    V(pa_threaded_mainloop_free, (pa_threaded_mainloop *m), (m)) \
    R(int, pa_threaded_mainloop_start, (pa_threaded_mainloop *m), (m), -1) \
    V(pa_threaded_mainloop_stop, (pa_threaded_mainloop *m), (m)) \
    V(pa_threaded_mainloop_lock, (pa_threaded_mainloop *m), (m)) \
    V(pa_threaded_mainloop_unlock, (pa_threaded_mainloop *m), (m)) \
    V(pa_threaded_mainloop_wait, (pa_threaded_mainloop *m), (m)) \
    V(pa_threaded_mainloop_signal, (pa_threaded_mainloop *m, int wait_for_accept), (m, wait_for_accept)) \
    R(pa_mainloop_api *, pa_threaded_mainloop_get_api, (pa_threaded_mainloop *m), (m), NULL) \
    R(pa_proplist *, pa_proplist_new, (void), (), NULL) \
    V(pa_proplist_free, (pa_proplist *p), (p)) \
    R(int, pa_proplist_sets, (pa_proplist *p, const char *key, const char *value), (p, key, value), -1) \
    R(const char *, pa_proplist_gets, (const pa_proplist *p, const char *key), (p, key), NULL) \
    R(pa_context *, pa_context_new_with_proplist, (pa_mainloop_api *mainloop, const char *name, const pa_proplist *proplist), \
      (mainloop, name, proplist), NULL) \
    V(pa_context_unref, (pa_context *c), (c)) \
    V(pa_context_set_state_callback, (pa_context *c, pa_context_notify_cb_t cb, void *userdata), (c, cb, userdata)) \
    R(int, pa_context_connect, (pa_context *c, const char *server, pa_context_flags_t flags, const pa_spawn_api *api), \
      (c, server, flags, api), -1) \
    V(pa_context_disconnect, (pa_context *c), (c)) \
    R(pa_context_state_t, pa_context_get_state, (const pa_context *c), (c), PA_CONTEXT_FAILED) \
    R(int, pa_context_errno, (const pa_context *c), (c), PA_ERR_UNKNOWN) \
    R(const char *, pa_context_get_server, (const pa_context *c), (c), NULL) \
    R(pa_operation *, pa_context_get_sink_input_info, (pa_context *c, uint32_t idx, pa_sink_input_info_cb_t cb, void *userdata), \
      (c, idx, cb, userdata), NULL) \
    R(pa_operation *, pa_context_get_sink_input_info_list, (pa_context *c, pa_sink_input_info_cb_t cb, void *userdata), \
      (c, cb, userdata), NULL) \
    R(pa_operation *, pa_context_set_sink_input_volume, \
      (pa_context *c, uint32_t idx, const pa_cvolume *volume, pa_context_success_cb_t cb, void *userdata), \
      (c, idx, volume, cb, userdata), NULL) \
    V(pa_context_set_subscribe_callback, (pa_context *c, pa_context_subscribe_cb_t cb, void *userdata), (c, cb, userdata)) \
    R(pa_operation *, pa_context_subscribe, (pa_context *c, pa_subscription_mask_t m, pa_context_success_cb_t cb, void *userdata), \
      (c, m, cb, userdata), NULL) \
    R(pa_operation_state_t, pa_operation_get_state, (const pa_operation *o), (o), PA_OPERATION_CANCELLED) \
    V(pa_operation_unref, (pa_operation *o), (o)) \
    R(pa_stream *, pa_stream_new_with_proplist, \
      (pa_context *c, const char *name, const pa_sample_spec *ss, const pa_channel_map *map, pa_proplist *p), \
      (c, name, ss, map, p), NULL) \
    V(pa_stream_unref, (pa_stream *s), (s)) \
    V(pa_stream_set_state_callback, (pa_stream *s, pa_stream_notify_cb_t cb, void *userdata), (s, cb, userdata)) \
    V(pa_stream_set_write_callback, (pa_stream *p, pa_stream_request_cb_t cb, void *userdata), (p, cb, userdata)) \
    R(int, pa_stream_connect_playback, \
      (pa_stream *s, const char *dev, const pa_buffer_attr *attr, pa_stream_flags_t flags, const pa_cvolume *volume, \
       pa_stream *sync_stream), \
      (s, dev, attr, flags, volume, sync_stream), -1) \
    R(int, pa_stream_disconnect, (pa_stream *s), (s), -1) \
    R(pa_stream_state_t, pa_stream_get_state, (const pa_stream *p), (p), PA_STREAM_FAILED) \
    R(uint32_t, pa_stream_get_index, (const pa_stream *s), (s), PA_INVALID_INDEX) \
    R(size_t, pa_stream_writable_size, (const pa_stream *p), (p), (size_t)-1) \
    R(int, pa_stream_write, \
      (pa_stream *p, const void *data, size_t nbytes, pa_free_cb_t free_cb, int64_t offset, pa_seek_mode_t seek), \
      (p, data, nbytes, free_cb, offset, seek), -1) \
    R(pa_operation *, pa_stream_drain, (pa_stream *s, pa_stream_success_cb_t cb, void *userdata), (s, cb, userdata), NULL) \
    R(const char *, pa_strerror, (int error), (error), "libpulse is not loaded") \
    R(pa_volume_t, pa_sw_volume_from_dB, (double f), (f), PA_VOLUME_NORM) \
    R(pa_volume_t, pa_sw_volume_multiply, (pa_volume_t a, pa_volume_t b), (a, b), a)

#define RW_INDEX_R(type, name, parameters, arguments, fallback) rw_index_##name,
#define RW_INDEX_V(name, parameters, arguments) rw_index_##name,
enum { RW_PULSE_FUNCTIONS(RW_INDEX_R, RW_INDEX_V) rw_pulse_function_count };

#define RW_NAME_R(type, name, parameters, arguments, fallback) #name,
#define RW_NAME_V(name, parameters, arguments) #name,
static const char *const names[] = { RW_PULSE_FUNCTIONS(RW_NAME_R, RW_NAME_V) };

static void *slots[rw_pulse_function_count];
static rw_lazy_library library = { "libpulse.so.0", names, slots, rw_pulse_function_count, 0, "" };
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void open_library(void) { rw_lazy_library_open(&library); }

int rw_pulse_load(void) {
    // pthread_once also publishes the filled slots to every thread that calls it afterwards.
    pthread_once(&once, open_library);
    return library.loaded;
}

const char *rw_pulse_load_error(void) {
    pthread_once(&once, open_library);
    return library.error;
}

// Each forwarder calls through a pointer of the header's own type for the function.
#define RW_FORWARD_R(type, name, parameters, arguments, fallback) \
    RW_HIDDEN type name parameters { \
        if (!rw_pulse_load()) return fallback; \
        return ((__typeof__(&name))slots[rw_index_##name]) arguments; \
    }
#define RW_FORWARD_V(name, parameters, arguments) \
    RW_HIDDEN void name parameters { \
        if (!rw_pulse_load()) return; \
        ((__typeof__(&name))slots[rw_index_##name]) arguments; \
    }
RW_PULSE_FUNCTIONS(RW_FORWARD_R, RW_FORWARD_V)
