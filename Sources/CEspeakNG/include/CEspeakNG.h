// espeak-ng's C API for Swift; imported only by RunWalkSpeech.
//
// libespeak-ng is not linked: EspeakForwarding.c defines the functions RunWalkSpeech calls and
// opens libespeak-ng.so.1 the first time one is needed, so a run that never synthesises speech
// (text or no voice) does not map it, nor the audio libraries it pulls in (pcaudio, libpulse,
// ALSA): issue 18, RSS on a headless handheld.
#ifndef RW_CESPEAKNG_H
#define RW_CESPEAKNG_H

#include <espeak-ng/speak_lib.h>
#include <espeak-ng/espeak_ng.h>

/// Opens libespeak-ng.so.1 on the first call (thread-safe); 1 when it and every function we call are there.
/// Call it before any espeak function: without the library those return failure values.
int rw_espeak_load(void);

/// Why libespeak-ng could not be loaded (the dynamic linker's words); empty when it was.
const char *rw_espeak_load_error(void);

#endif
