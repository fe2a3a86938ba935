#include "CJobControl.h"

#include <signal.h>
#include <sys/signalfd.h>

int runwalk_tstp_signalfd(void) {
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGTSTP);
    return signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
}
