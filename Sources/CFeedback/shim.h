// feedbackd's client library (haptic and sound feedback); imported only by RunWalkDesktop.
// Its API is marked unstable: the define is the library's own opt-in.
#define LIBFEEDBACK_USE_UNSTABLE_API
#include <libfeedback.h>
