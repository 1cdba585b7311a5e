import CLinuxTiming
import Glibc

/// A kernel PPS source: Linux's `/dev/ppsN` (RFC 2783's API as ioctls), which a `pps-gpio`
/// overlay or the `pps_ldisc` line discipline makes. The kernel stamps each edge in its
/// interrupt, so the time read here is the edge's, however late the reading thread wakes.
public struct PPSDevice: Sendable {
    /// What the device was opened as: "/dev/pps0".
    public let path: String
    /// Its descriptor; `close()` lets it go.
    public let descriptor: FileDescriptor

    /// What a PPS device can do (`PPS_GETCAP`).
    public struct Capabilities: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// It stamps the rising (assert) edge.
        public static let captureAssert = Capabilities(rawValue: Int32(gpsfix_pps_capture_assert))
        /// It stamps the falling (clear) edge.
        public static let captureClear = Capabilities(rawValue: Int32(gpsfix_pps_capture_clear))
        /// A fetch can wait for the next edge.
        public static let canWait = Capabilities(rawValue: Int32(gpsfix_pps_can_wait))
    }

    /// One assert edge as the kernel stamped it: its count since the device was made (a gap
    /// says edges were missed) and its time on the wall clock.
    public struct Edge: Equatable, Sendable {
        /// The kernel's count of assert edges (`assert_sequence`), wrapping at 2³².
        public let sequence: UInt32
        /// The edge's time on the wall clock, as the kernel stamped it.
        public let time: WallTime
        /// An edge as the kernel gives it (or a test).
        public init(sequence: UInt32, time: WallTime) {
            self.sequence = sequence
            self.time = time
        }
    }

    /// Opens `path` for reading and writing (the mode may need setting), or for reading when
    /// writing is refused (a device whose default mode already stamps assert edges needs no
    /// more). Throws the system's error: `.noSuchFile`, `.permissionDenied`…
    public static func open(_ path: String) throws(SystemError) -> PPSDevice {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(path, .readWrite, options: [.noControllingTerminal])
        } catch .permissionDenied {
            descriptor = try FileDescriptor.open(path, .readOnly, options: [.noControllingTerminal])
        }
        return PPSDevice(path: path, descriptor: descriptor)
    }

    private init(path: String, descriptor: FileDescriptor) {
        self.path = path
        self.descriptor = descriptor
    }

    /// `PPS_GETCAP`. A descriptor that is not a PPS device throws `.notATerminal` (ENOTTY).
    public func capabilities() throws(SystemError) -> Capabilities {
        var raw: Int32 = 0
        _ = try retryingInterrupts { gpsfix_pps_getcap(descriptor.rawValue, &raw) }
        return Capabilities(rawValue: raw)
    }

    /// Makes the device stamp assert edges, unless it does already (`pps-gpio` and
    /// `pps_ldisc` do from the start: the kernel hands a fetch seconds and nanoseconds
    /// whatever the format bits say, so only the capture bit matters). Setting the mode needs
    /// CAP_SYS_TIME: without it this throws `.notPermitted`.
    public func captureAssertEdges() throws(SystemError) {
        var params = pps_kparams()
        _ = try retryingInterrupts { gpsfix_pps_getparams(descriptor.rawValue, &params) }
        guard params.mode & Int32(gpsfix_pps_capture_assert) == 0 else { return }
        params.mode |= Int32(gpsfix_pps_capture_assert | gpsfix_pps_tsfmt_tspec)
        _ = try retryingInterrupts { gpsfix_pps_setparams(descriptor.rawValue, &params) }
    }

    /// Waits up to `timeout` for the next edge, and gives the latest assert edge then; nil
    /// when none came in time (the kernel's ETIMEDOUT is a value here: no pulse is news, not
    /// a failure). A signal restarts the wait with what is left of it.
    public func nextAssert(timeout: Duration) throws(SystemError) -> Edge? {
        let deadline = Clocks.monotonicSeconds + timeout.inSeconds
        while true {
            let left = max(0, deadline - Clocks.monotonicSeconds)
            var data = pps_fdata()
            data.timeout.sec = Int64(left.rounded(.down))
            data.timeout.nsec = Int32(((left - left.rounded(.down)) * 1e9).rounded(.down))
            data.timeout.flags = 0
            if gpsfix_pps_fetch(descriptor.rawValue, &data) == 0 {
                let stamp = data.info.assert_tu
                guard data.info.assert_sequence > 0 else { return nil }
                return Edge(sequence: data.info.assert_sequence,
                            time: WallTime(seconds: stamp.sec, nanoseconds: Int64(stamp.nsec)))
            }
            let code = errno
            if code == ETIMEDOUT { return nil }
            if code == EINTR { continue }
            throw SystemError(rawValue: code)
        }
    }

    /// Lets the device go.
    public func close() { descriptor.close() }
}
