// PulseAudio's asynchronous API (a threaded main loop, stream proplists, sink-input volumes)
// for the speaker and the music ducking; imported only by RunWalkSpeech.
#include <pulse/pulseaudio.h>
