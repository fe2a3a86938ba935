// PulseAudio's asynchronous API (a threaded main loop, stream proplists, sink-input volumes)
// for the speaker and the music ducking; imported only by RunWalkSpeech.
//
// libpulse is not linked: PulseForwarding.c defines the functions RunWalkSpeech calls and
// opens libpulse.so.0 the first time one is needed, so a run without the speaker never maps
// libpulse and the dozen libraries it pulls in (issue 18: RSS on a headless handheld).
#ifndef RW_CPULSE_H
#define RW_CPULSE_H

#include <pulse/pulseaudio.h>

/// Opens libpulse.so.0 on the first call (thread-safe); 1 when it and every function we call are there.
/// Call it before any pa_ function: without the library those return failure values.
int rw_pulse_load(void);

/// Why libpulse could not be loaded (the dynamic linker's words); empty when it was.
const char *rw_pulse_load_error(void);

#endif
