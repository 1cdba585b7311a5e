/*
 * pps-standin.c: an LD_PRELOAD stand-in for the kernel's PPS interfaces.
 *
 * The test machine's kernel has no PPS client (so no /dev/ppsN) and a pty
 * has no modem lines, so gpsfix's PPS code could otherwise only run against
 * real hardware. Preloaded into the real gpsfix binary, this library
 * replaces exactly the kernel interface: open() of the PPS device node, the
 * RFC 2783 ioctls on it, and the modem-line ioctls of ttys, with pulse edges
 * at times the test chooses. Everything above it is real, so it must follow
 * the kernel's semantics (results, errno, blocking, signals, which edges are
 * captured) as closely as it can: it is what gpsfix's real code is tested
 * against. See drivers/pps/pps.c, drivers/pps/kapi.c and
 * uart_wait_modem_status() in drivers/tty/serial/serial_core.c.
 *
 * Environment, read once on first use:
 *   GPSFIX_STANDIN_EDGES=FILE     required; without it nothing is intercepted
 *   GPSFIX_STANDIN_PPS=PATH       open() of exactly this path gives a PPS device
 *   GPSFIX_STANDIN_PPS_MODE=none  the device's default params capture nothing
 *                                 (otherwise PPS_CAPTUREASSERT|PPS_TSFMT_TSPEC)
 *   GPSFIX_STANDIN_PPS_NOPERM=1   PPS_SETPARAMS fails EPERM, as without
 *                                 CAP_SYS_TIME
 *   GPSFIX_STANDIN_MODEM=dcd|cts|ri  the modem line of every tty that carries
 *                                 the pulse (otherwise modem ioctls pass through)
 *   GPSFIX_STANDIN_LOG=FILE       append one line per intercepted ioctl
 *
 * Edge file: one pulse per line, the CLOCK_REALTIME time of its assert edge
 * as SECONDS[.FRACTION] (at most 9 fraction digits), strictly ascending, at
 * most 1,000,000 pulses; blank lines and lines starting with '#' are ignored.
 * Each clear edge follows 100 ms after its assert, or halfway to the next
 * assert if that is sooner. Bad input aborts: a broken fixture must fail
 * loudly rather than let a test pass on nothing.
 */
#undef _FORTIFY_SOURCE /* its inline open() wrappers would clash with ours */
#undef _FILE_OFFSET_BITS /* it would rename our open() to open64() */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/pps.h>
#include <linux/serial.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define NS 1000000000LL
#define NEVER INT64_MAX
#define MAX_PULSES 1000000
#define MAX_FAKE_FDS 64
/* What pps_ldisc offers, so every mode a serial-port PPS allows is accepted. */
#define CAPS (PPS_CAPTUREBOTH | PPS_OFFSETASSERT | PPS_OFFSETCLEAR | \
              PPS_CANWAIT | PPS_TSFMT_TSPEC)

int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);
int __openat64_2(int dirfd, const char *path, int flags);

static struct {
    int (*open)(const char *, int, ...), (*open64)(const char *, int, ...);
    int (*openat)(int, const char *, int, ...);
    int (*openat64)(int, const char *, int, ...);
    int (*open_2)(const char *, int), (*open64_2)(const char *, int);
    int (*openat_2)(int, const char *, int), (*openat64_2)(int, const char *, int);
    int (*close)(int);
    int (*ioctl)(int, unsigned long, ...);
} real;

static struct {
    char *edges, *pps; /* NULL: not standing in */
    int line;          /* TIOCM_ bit carrying the pulse; 0: pass through */
    int noperm, log_fd;
} cfg;

static int64_t *asserts, *clears;
static size_t npulses;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int fake_fds[MAX_FAKE_FDS], nfake;
static struct {
    struct pps_kparams params;
    struct pps_kinfo info; /* what the kernel would have captured so far */
    int64_t upto;          /* edges at or before this have been replayed */
} dev;

static pthread_once_t cfg_once = PTHREAD_ONCE_INIT;
static pthread_once_t edges_once = PTHREAD_ONCE_INIT;

__attribute__((format(printf, 1, 2), noreturn))
static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("pps-standin: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

static void *sym(const char *name)
{
    void *p = dlsym(RTLD_NEXT, name);
    if (!p)
        die("cannot find the real %s: %s", name, dlerror());
    return p;
}

static char *env(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? strdup(v) : NULL;
}

/* This may run inside our own open or ioctl, so it uses only the real ones. */
static void cfg_init(void)
{
    real.open = sym("open");
    real.open64 = sym("open64");
    real.openat = sym("openat");
    real.openat64 = sym("openat64");
    real.open_2 = sym("__open_2");
    real.open64_2 = sym("__open64_2");
    real.openat_2 = sym("__openat_2");
    real.openat64_2 = sym("__openat64_2");
    real.close = sym("close");
    real.ioctl = sym("ioctl");
    cfg.log_fd = -1;

    cfg.edges = env("GPSFIX_STANDIN_EDGES");
    char *modem = env("GPSFIX_STANDIN_MODEM");
    if (!cfg.edges) {
        if (modem || getenv("GPSFIX_STANDIN_PPS"))
            fputs("pps-standin: GPSFIX_STANDIN_EDGES is not set; "
                  "passing everything through\n", stderr);
        return;
    }
    cfg.pps = env("GPSFIX_STANDIN_PPS");
    if (modem) {
        if (!strcmp(modem, "dcd")) cfg.line = TIOCM_CD;
        else if (!strcmp(modem, "cts")) cfg.line = TIOCM_CTS;
        else if (!strcmp(modem, "ri")) cfg.line = TIOCM_RI;
        else die("GPSFIX_STANDIN_MODEM=%s: expected dcd, cts or ri", modem);
    }
    char *mode = env("GPSFIX_STANDIN_PPS_MODE");
    if (mode && strcmp(mode, "none"))
        die("GPSFIX_STANDIN_PPS_MODE=%s: expected none or unset", mode);
    dev.params.api_version = PPS_API_VERS_1;
    dev.params.mode = PPS_TSFMT_TSPEC | (mode ? 0 : PPS_CAPTUREASSERT);
    dev.upto = INT64_MIN;
    char *noperm = env("GPSFIX_STANDIN_PPS_NOPERM");
    cfg.noperm = noperm && strcmp(noperm, "0");
    char *log = env("GPSFIX_STANDIN_LOG");
    if (log && (cfg.log_fd = real.open(log, O_WRONLY | O_APPEND | O_CREAT |
                                       O_CLOEXEC, 0644)) < 0)
        die("%s: %s", log, strerror(errno));
}

static void setup(void) { pthread_once(&cfg_once, cfg_init); }

/* SECONDS[.FRACTION] parsed as integers: a double would lose nanoseconds. */
static int parse_time(const char *p, const char *end, int64_t *out)
{
    int64_t sec = 0, frac = 0;
    int idigits = 0, fdigits = 0;
    for (; p < end && *p >= '0' && *p <= '9'; p++, idigits++)
        if (idigits < 12)
            sec = sec * 10 + (*p - '0');
    if (p < end && *p == '.')
        for (p++; p < end && *p >= '0' && *p <= '9'; p++)
            if (++fdigits <= 9)
                frac = frac * 10 + (*p - '0');
    if (p != end || idigits == 0 || idigits > 12 || fdigits > 9 ||
        (p[-1] == '.') || sec > (INT64_MAX - NS) / NS)
        return -1;
    for (; fdigits < 9; fdigits++)
        frac *= 10;
    *out = sec * NS + frac;
    return 0;
}

static void load_edges(void)
{
    const char *path = cfg.edges;
    int fd = real.open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        die("%s: cannot open the edge file: %s", path, strerror(errno));
    size_t len = 0, cap = 1 << 16;
    char *buf = malloc(cap);
    for (ssize_t n; buf; len += (size_t)n) {
        if (len == cap && !(buf = realloc(buf, cap *= 2)))
            break;
        if ((n = read(fd, buf + len, cap - len)) <= 0) {
            if (n < 0)
                die("%s: %s", path, strerror(errno));
            break;
        }
    }
    real.close(fd);
    size_t have = 0;
    unsigned long lineno = 0;
    for (char *line = buf, *nl; buf && line < buf + len; line = nl + 1) {
        char *end = memchr(line, '\n', (size_t)(buf + len - line));
        nl = end ? end : buf + len;
        end = nl;
        lineno++;
        while (line < end && (*line == ' ' || *line == '\t'))
            line++;
        while (end > line && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
            end--;
        if (line == end || *line == '#')
            continue;
        int64_t t;
        if (parse_time(line, end, &t))
            die("%s:%lu: not SECONDS[.FRACTION]: %.*s", path, lineno,
                (int)(end - line), line);
        if (npulses && t <= asserts[npulses - 1])
            die("%s:%lu: not after the previous pulse", path, lineno);
        if (npulses == MAX_PULSES)
            die("%s:%lu: more than %d pulses", path, lineno, MAX_PULSES);
        if (npulses == have) {
            have = have ? have * 2 : 1024;
            if (!(asserts = realloc(asserts, have * sizeof *asserts)))
                break;
        }
        asserts[npulses++] = t;
    }
    if (!buf || (npulses && !asserts) || !(clears = malloc((npulses + 1) * sizeof *clears)))
        die("out of memory reading %s", path);
    free(buf);
    for (size_t i = 0; i < npulses; i++) {
        int64_t width = NS / 10;
        if (i + 1 < npulses && (asserts[i + 1] - asserts[i]) / 2 < width)
            width = (asserts[i + 1] - asserts[i]) / 2;
        clears[i] = asserts[i] + width;
    }
}

static void need_edges(void) { pthread_once(&edges_once, load_edges); }

static size_t count_upto(const int64_t *t, int64_t when)
{
    size_t lo = 0, hi = npulses;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t[mid] <= when) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static int64_t next_after(const int64_t *t, int64_t when)
{
    size_t i = count_upto(t, when);
    return i < npulses ? t[i] : NEVER;
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ts.tv_sec * NS + ts.tv_nsec;
}

/* 0 once `when` has come, EINTR if a signal handler ran first. The kernel
 * checks its wake condition before pending signals, and so does this. */
static int sleep_until(int64_t when)
{
    if (when == NEVER) {
        pause(); /* returns only after a handler has run */
        return EINTR;
    }
    /* An edge wakes the kernel's waiter from an interrupt, without the
     * thread's timer slack (50 us by default) on top. */
    int slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
    struct timespec ts = { .tv_sec = when / NS, .tv_nsec = when % NS };
    int rc = clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL);
    if (slack > 0)
        prctl(PR_SET_TIMERSLACK, (unsigned long)slack, 0, 0, 0);
    return rc == EINTR && now_ns() < when ? EINTR : 0;
}

/* pps_event() adds the offset in force at capture time, like this. */
static struct pps_ktime stamp(int64_t t, int offset, const struct pps_ktime *off)
{
    struct pps_ktime k = { .sec = t / NS, .nsec = (int32_t)(t % NS), .flags = 0 };
    if (offset) {
        int64_t nsec = (int64_t)k.nsec + off->nsec;
        for (; nsec >= NS; nsec -= NS) k.sec++;
        for (; nsec < 0; nsec += NS) k.sec--;
        k.nsec = (int32_t)nsec;
        k.sec += off->sec;
    }
    return k;
}

/* The kernel captures each edge with the params in force as it happens, so
 * edges are replayed through the current params before they change and
 * before anything is read back. Call with the lock held. */
static void replay(int64_t upto)
{
    if (upto <= dev.upto)
        return;
    size_t a0 = count_upto(asserts, dev.upto), a1 = count_upto(asserts, upto);
    size_t c0 = count_upto(clears, dev.upto), c1 = count_upto(clears, upto);
    const struct pps_kparams *p = &dev.params;
    if (a1 > a0 || c1 > c0)
        dev.info.current_mode = p->mode;
    if ((p->mode & PPS_CAPTUREASSERT) && a1 > a0) {
        dev.info.assert_sequence += (uint32_t)(a1 - a0);
        dev.info.assert_tu = stamp(asserts[a1 - 1], p->mode & PPS_OFFSETASSERT,
                                   &p->assert_off_tu);
    }
    if ((p->mode & PPS_CAPTURECLEAR) && c1 > c0) {
        dev.info.clear_sequence += (uint32_t)(c1 - c0);
        dev.info.clear_tu = stamp(clears[c1 - 1], p->mode & PPS_OFFSETCLEAR,
                                  &p->clear_off_tu);
    }
    dev.upto = upto;
}

static int pps_setparams(const struct pps_kparams *in)
{
    if (cfg.noperm)
        return -EPERM;
    struct pps_kparams p = *in;
    if (!(p.mode & PPS_CAPTUREBOTH) || (p.mode & ~CAPS))
        return -EINVAL;
    if (!(p.mode & (PPS_TSFMT_TSPEC | PPS_TSFMT_NTPFP)))
        p.mode |= PPS_TSFMT_TSPEC;
    p.mode |= PPS_CANWAIT;
    p.api_version = PPS_API_VERS;
    p.assert_off_tu.flags = p.clear_off_tu.flags = 0;
    need_edges();
    pthread_mutex_lock(&lock);
    replay(now_ns());
    dev.params = p;
    pthread_mutex_unlock(&lock);
    return 0;
}

static int pps_fetch(struct pps_fdata *fdata)
{
    struct pps_ktime timeout = fdata->timeout;
    need_edges();
    int64_t start = now_ns(), deadline = NEVER, edge = NEVER;
    int wait = 1;
    if (!(timeout.flags & PPS_TIME_INVALID)) {
        if (timeout.sec < 0)
            return -ETIMEDOUT;
        /* a limit of decades is no limit, and must not overflow */
        int64_t len = timeout.sec < 1000000000 ? timeout.sec * NS + timeout.nsec : NEVER;
        wait = len != 0; /* zero jiffies: the kernel reports without waiting */
        if (len > 0 && len != NEVER)
            deadline = start + len;
    }
    if (wait) {
        pthread_mutex_lock(&lock);
        int mode = dev.params.mode;
        pthread_mutex_unlock(&lock);
        if (mode & PPS_CAPTUREASSERT)
            edge = next_after(asserts, start);
        if ((mode & PPS_CAPTURECLEAR) && next_after(clears, start) < edge)
            edge = next_after(clears, start);
        if (sleep_until(edge <= deadline ? edge : deadline))
            return -EINTR; /* even under SA_RESTART: pps.c returns EINTR */
        if (edge > deadline)
            return -ETIMEDOUT;
    }
    pthread_mutex_lock(&lock);
    int64_t now = now_ns();
    /* the kernel stamps in the interrupt: wake-up latency never shows */
    replay(edge != NEVER && edge > now ? edge : now);
    fdata->info = dev.info;
    pthread_mutex_unlock(&lock);
    return 0;
}

static int pps_ioctl(unsigned int cmd, void *arg)
{
    switch (cmd) {
    case PPS_GETCAP:
        *(int *)arg = CAPS;
        return 0;
    case PPS_GETPARAMS:
        pthread_mutex_lock(&lock);
        *(struct pps_kparams *)arg = dev.params;
        pthread_mutex_unlock(&lock);
        return 0;
    case PPS_SETPARAMS:
        return pps_setparams(arg);
    case PPS_FETCH:
        return pps_fetch(arg);
    default:
        return -ENOTTY;
    }
}

static int modem_ioctl(unsigned int cmd, unsigned long arg)
{
    need_edges();
    int64_t now = now_ns();
    size_t na = count_upto(asserts, now), nc = count_upto(clears, now);
    switch (cmd) {
    case TIOCMIWAIT: {
        int64_t a = next_after(asserts, now), c = next_after(clears, now);
        /* the caller timestamps after we return, so the real latency shows */
        if (sleep_until(arg & (unsigned long)cfg.line ? (a < c ? a : c) : NEVER))
            return -EINTR; /* the kernel would restart under SA_RESTART */
        return 0;
    }
    case TIOCMGET: {
        int bits = TIOCM_DSR | TIOCM_DTR | TIOCM_RTS | TIOCM_CTS;
        bits &= ~cfg.line;
        *(int *)arg = bits | (na > nc ? cfg.line : 0);
        return 0;
    }
    case TIOCGICOUNT: {
        struct serial_icounter_struct *ic = (void *)arg;
        memset(ic, 0, sizeof *ic);
        int *counter = cfg.line == TIOCM_CD ? &ic->dcd
                     : cfg.line == TIOCM_CTS ? &ic->cts : &ic->rng;
        *counter = (int)(na + nc);
        return 0;
    }
    default: /* TIOCMSET, TIOCMBIS, TIOCMBIC: a UART takes them, a pty won't */
        return 0;
    }
}

#define NAME(x) case x: return #x;
static const char *name(unsigned int cmd_or_errno)
{
    switch (cmd_or_errno) {
    NAME(PPS_GETCAP) NAME(PPS_GETPARAMS) NAME(PPS_SETPARAMS) NAME(PPS_FETCH)
    NAME(TIOCMIWAIT) NAME(TIOCMGET) NAME(TIOCGICOUNT)
    NAME(TIOCMSET) NAME(TIOCMBIS) NAME(TIOCMBIC)
    NAME(EINTR) NAME(ETIMEDOUT) NAME(EPERM) NAME(EINVAL) NAME(ENOTTY)
    default: return "?";
    }
}

/* One write() per line, so lines from several threads or processes never mix. */
static void log_call(int fd, unsigned int cmd, int rc)
{
    if (cfg.log_fd < 0)
        return;
    char buf[160];
    int64_t t = now_ns();
    int n = snprintf(buf, sizeof buf, "%lld.%09lld pid %d fd %d %s(0x%x) -> %s%s\n",
                     (long long)(t / NS), (long long)(t % NS), (int)getpid(), fd,
                     name(cmd), cmd, rc < 0 ? "-1 errno " : "0", rc < 0 ? name((unsigned)-rc) : "");
    if (n > 0 && write(cfg.log_fd, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1) < 0)
        return;
}

static int is_fake(int fd)
{
    int found = 0;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < nfake && !found; i++)
        found = fake_fds[i] == fd;
    pthread_mutex_unlock(&lock);
    return found;
}

static void forget_fake(int fd)
{
    pthread_mutex_lock(&lock);
    for (int i = 0; i < nfake; i++)
        if (fake_fds[i] == fd)
            fake_fds[i--] = fake_fds[--nfake];
    pthread_mutex_unlock(&lock);
}

int ioctl(int fd, unsigned long request, ...)
{
    va_list ap;
    va_start(ap, request);
    unsigned long arg = va_arg(ap, unsigned long);
    va_end(ap);
    int saved = errno;
    setup();
    unsigned int cmd = (unsigned int)request; /* the kernel sees only 32 bits */
    int rc;
    if (cfg.pps && is_fake(fd))
        rc = pps_ioctl(cmd, (void *)arg);
    else if (cfg.line && (cmd == TIOCMIWAIT || cmd == TIOCMGET || cmd == TIOCGICOUNT ||
                          cmd == TIOCMSET || cmd == TIOCMBIS || cmd == TIOCMBIC) &&
             isatty(fd))
        rc = modem_ioctl(cmd, arg);
    else {
        errno = saved;
        return real.ioctl(fd, request, arg);
    }
    log_call(fd, cmd, rc);
    errno = rc < 0 ? -rc : saved;
    return rc < 0 ? -1 : 0;
}

static int is_pps_path(const char *path)
{
    setup();
    return cfg.pps && path && !strcmp(path, cfg.pps);
}

/* A real descriptor, so that close, fcntl, poll and fork all still work. */
static int open_pps(int flags)
{
    need_edges(); /* a missing edge file is reported at open, not at fetch */
    int fd = real.open("/dev/null", flags & (O_ACCMODE | O_CLOEXEC | O_NONBLOCK));
    if (fd >= 0) {
        pthread_mutex_lock(&lock);
        if (nfake == MAX_FAKE_FDS)
            die("more than %d PPS descriptors open at once", MAX_FAKE_FDS);
        fake_fds[nfake++] = fd;
        pthread_mutex_unlock(&lock);
    }
    return fd;
}

/* Every open entry point passes through unless it names the PPS device. The
 * mode argument exists only when the flags say so. */
#define VARIADIC_OPEN(fn, params, args)                               \
    int fn params                                                     \
    {                                                                 \
        mode_t mode = 0;                                              \
        if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) {  \
            va_list ap;                                               \
            va_start(ap, flags);                                      \
            mode = va_arg(ap, mode_t);                                \
            va_end(ap);                                               \
        }                                                             \
        return is_pps_path(path) ? open_pps(flags) : real.fn args;    \
    }
VARIADIC_OPEN(open, (const char *path, int flags, ...), (path, flags, mode))
VARIADIC_OPEN(open64, (const char *path, int flags, ...), (path, flags, mode))
VARIADIC_OPEN(openat, (int dirfd, const char *path, int flags, ...), (dirfd, path, flags, mode))
VARIADIC_OPEN(openat64, (int dirfd, const char *path, int flags, ...), (dirfd, path, flags, mode))

/* _FORTIFY_SOURCE callers come in through these, which never take a mode. */
#define FORTIFIED_OPEN(fn, field, params, args) \
    int fn params { return is_pps_path(path) ? open_pps(flags) : real.field args; }
FORTIFIED_OPEN(__open_2, open_2, (const char *path, int flags), (path, flags))
FORTIFIED_OPEN(__open64_2, open64_2, (const char *path, int flags), (path, flags))
FORTIFIED_OPEN(__openat_2, openat_2, (int dirfd, const char *path, int flags), (dirfd, path, flags))
FORTIFIED_OPEN(__openat64_2, openat64_2, (int dirfd, const char *path, int flags), (dirfd, path, flags))

int close(int fd)
{
    setup();
    if (cfg.pps)
        forget_fake(fd); /* before the number can be handed out again */
    return real.close(fd);
}
