// espeak-ng's C API for Swift; imported only by RunWalkSpeech.
#include <espeak-ng/speak_lib.h>
#include <espeak-ng/espeak_ng.h>
