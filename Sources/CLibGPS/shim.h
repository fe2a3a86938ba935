#ifndef RUNWALK_CLIBGPS_SHIM_H
#define RUNWALK_CLIBGPS_SHIM_H

#include <gps.h>

/// gps_send is variadic, which Swift cannot call: this passes one preformatted command.
static inline int runwalk_gps_send(struct gps_data_t *data, const char *command) {
    return gps_send(data, "%s", command);
}

/// The watch flags RunWalk streams with (WATCH_ENABLE | WATCH_JSON).
static inline unsigned int runwalk_gps_watch_json(void) {
    return WATCH_ENABLE | WATCH_JSON;
}

#endif
