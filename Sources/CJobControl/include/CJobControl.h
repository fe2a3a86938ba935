#ifndef RUNWALK_CJOBCONTROL_H
#define RUNWALK_CJOBCONTROL_H

/// A signalfd(2) for SIGTSTP alone (close-on-exec, non-blocking), or -1 with errno set.
/// Swift's Glibc module does not carry <sys/signalfd.h>; only RunWalkHost's StopSignalPause uses this.
int runwalk_tstp_signalfd(void);

#endif
