#ifndef GPSFIX_CLINUXTIMING_H
#define GPSFIX_CLINUXTIMING_H

// Linux's PPS API (RFC 2783 as the kernel's /dev/ppsN ioctls), a serial port's modem-line
// ioctls and the kernel clock's synchronisation state (adjtimex), for GPSSystem alone. The request numbers are function-like macros (_IOWR with a
// pointer's size, as <linux/pps.h> declares them), which Swift cannot import: each call is
// made here, and reports as the C library does (-1 and errno), so GPSSystem's one EINTR and
// errno rule applies to it as to every other call.

#include <linux/pps.h>
#include <linux/serial.h>
#include <sys/ioctl.h>
#include <sys/timex.h>

static inline int gpsfix_pps_getcap(int fd, int *capabilities) {
    return ioctl(fd, PPS_GETCAP, capabilities);
}

static inline int gpsfix_pps_getparams(int fd, struct pps_kparams *params) {
    return ioctl(fd, PPS_GETPARAMS, params);
}

static inline int gpsfix_pps_setparams(int fd, struct pps_kparams *params) {
    return ioctl(fd, PPS_SETPARAMS, params);
}

static inline int gpsfix_pps_fetch(int fd, struct pps_fdata *data) {
    return ioctl(fd, PPS_FETCH, data);
}

/// Blocks until one of `lines` (TIOCM_ bits) changes; only a signal handler ends it sooner.
static inline int gpsfix_tiocmiwait(int fd, unsigned long lines) {
    return ioctl(fd, TIOCMIWAIT, lines);
}

static inline int gpsfix_tiocmget(int fd, int *lines) {
    return ioctl(fd, TIOCMGET, lines);
}

static inline int gpsfix_tiocgicount(int fd, struct serial_icounter_struct *counts) {
    return ioctl(fd, TIOCGICOUNT, counts);
}

/// 1 when the kernel's clock is marked synchronised (an NTP daemon disciplines it), 0 when it
/// is not, -1 when it cannot tell. Reading needs no privilege (modes 0).
static inline int gpsfix_clock_synchronised(void) {
    struct timex state = { .modes = 0 };
    int result = adjtimex(&state);
    if (result == -1) return -1;
    return (result == TIME_ERROR || (state.status & STA_UNSYNC)) ? 0 : 1;
}

enum {
    gpsfix_pps_capture_assert = PPS_CAPTUREASSERT,
    gpsfix_pps_capture_clear = PPS_CAPTURECLEAR,
    gpsfix_pps_can_wait = PPS_CANWAIT,
    gpsfix_pps_tsfmt_tspec = PPS_TSFMT_TSPEC,
    gpsfix_pps_time_invalid = PPS_TIME_INVALID,
    gpsfix_tiocm_cd = TIOCM_CD,
    gpsfix_tiocm_cts = TIOCM_CTS,
    gpsfix_tiocm_ri = TIOCM_RI,
};

#endif
