#ifndef GPSFIX_CTIMESAMPLES_H
#define GPSFIX_CTIMESAMPLES_H

// The two records an NTP server reads a reference clock's time from, laid out as their
// readers declare them (C's layout for this machine, so Swift need not guess at padding),
// and the one store that needs C: the shared segment's fields written between volatile
// counts with barriers, which Swift has no words for.

#include <sys/time.h>
#include <time.h>

/// chrony's SOCK refclock datagram (refclock_sock.c): 40 bytes on x86_64 and aarch64.
struct gpsfix_sock_sample {
    struct timeval tv;  // system time of the measurement
    double offset;      // true time minus system time, seconds
    int pulse;          // non-zero for a PPS edge
    int leap;           // 0 normal, 1 insert, 2 delete
    int _pad;
    int magic;          // 0x534f434b, "SOCK"
};

/// ntpd's SHM refclock segment (refclock_shm.c), which chrony's SHM refclock reads too.
struct gpsfix_shm_time {
    int mode;
    volatile int count;
    time_t clockTimeStampSec;
    int clockTimeStampUSec;
    time_t receiveTimeStampSec;
    int receiveTimeStampUSec;
    int leap;
    int precision;
    int nsamples;
    volatile int valid;
    unsigned clockTimeStampNSec;
    unsigned receiveTimeStampNSec;
    int dummy[8];
};

/// Stores one sample in mode 1: the count is bumped before and after the fields, so a reader
/// that sees it change while it copies throws its copy away; `valid` is set last.
/// The times come as seconds and nanoseconds, not `struct timespec`, so that Swift calls it
/// without naming the C library's types (GPSSystem alone imports Glibc).
static inline void gpsfix_shm_store(volatile struct gpsfix_shm_time *shm,
                                    long long clock_sec, long clock_nsec,
                                    long long receive_sec, long receive_nsec,
                                    int precision, int leap) {
    struct timespec clock = { .tv_sec = (time_t)clock_sec, .tv_nsec = clock_nsec };
    struct timespec receive = { .tv_sec = (time_t)receive_sec, .tv_nsec = receive_nsec };
    shm->valid = 0;
    shm->mode = 1;
    shm->count++;
    __sync_synchronize();
    shm->clockTimeStampSec = clock.tv_sec;
    shm->clockTimeStampUSec = (int)(clock.tv_nsec / 1000);
    shm->clockTimeStampNSec = (unsigned)clock.tv_nsec;
    shm->receiveTimeStampSec = receive.tv_sec;
    shm->receiveTimeStampUSec = (int)(receive.tv_nsec / 1000);
    shm->receiveTimeStampNSec = (unsigned)receive.tv_nsec;
    shm->leap = leap;
    shm->precision = precision;
    shm->nsamples = 3;
    __sync_synchronize();
    shm->count++;
    shm->valid = 1;
}

#endif
