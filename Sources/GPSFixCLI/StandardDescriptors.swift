import GPSSystem

/// Descriptors 0, 1 and 2 as a run needs them.
enum StandardDescriptors {
    /// Puts /dev/null, opened read-only, on each of 0, 1 and 2 that is closed (`gpsfix >&-`).
    /// Left closed, its number would go to the next file opened (a capture, a recording), and
    /// reports meant for stdout would be written into that file. Read-only, writes to it still
    /// fail with EBADF, as they would have, and are reported.
    static func occupyClosed() {
        FileDescriptor.occupyClosedStandardDescriptors()
    }
}
