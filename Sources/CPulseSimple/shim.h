// PulseAudio's blocking "simple" API for the speaker sink; imported only by RunWalkSpeech.
#include <pulse/simple.h>
#include <pulse/error.h>
