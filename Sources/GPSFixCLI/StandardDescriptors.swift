import Glibc

/// Descriptors 0, 1 and 2 as a run needs them.
enum StandardDescriptors {
    /// Puts /dev/null, opened read-only, on each of 0, 1 and 2 that is closed (`gpsfix >&-`).
    /// Left closed, its number would go to the next file opened (a capture, a recording), and
    /// reports meant for stdout would be written into that file. Read-only, writes to it still
    /// fail with EBADF, as they would have, and are reported.
    static func occupyClosed() {
        // In order: open(2) takes the lowest free number, so each lands where it is missing.
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let null = open("/dev/null", O_RDONLY)
            if null >= 0 && null != fd {
                dup2(null, fd)
                close(null)
            }
        }
    }
}
