import CTimeSamples
import GPSSystem

/// The NTP shared-memory refclock (ntpd's driver 28, chrony's `refclock SHM UNIT`): a System V
/// segment under key 0x4e545030 + unit that holds the last sample, written in mode 1 (counted
/// before and after, so a reader can tell a torn copy).
///
/// Made if it is not there, as gpsd makes it: units 0 and 1 readable and writable by their
/// owner only (a reader running as root trusts them), units 2 and up by anyone, so that a
/// writer that is not root can feed a chronyd that is.
public final class NTPSharedMemory: @unchecked Sendable {
    // @unchecked: `segment` is attached once and written by one thread at a time (the
    // source's).
    /// The refclock's unit, 0…255: `refclock SHM 0` in chrony, `127.127.28.0` in ntpd.
    public let unit: Int
    private let attached: SharedMemorySegment
    private let segment: UnsafeMutablePointer<gpsfix_shm_time>

    /// log2 of the samples' expected jitter, in seconds: -1 is half a second, about what an
    /// NMEA sentence's arrival promises (gpsd says the same of NMEA).
    public static let precision: Int32 = -1

    /// The System V IPC key of `unit`'s segment, 0x4e545030 ("NTP0") plus the unit, as ntpd,
    /// chrony and gpsd compute it.
    public static func key(unit: Int) -> Int32 { 0x4e54_5030 &+ Int32(truncatingIfNeeded: unit) }

    /// Attaches the segment of `unit` (0…255; any other is a programming error and traps),
    /// making it if it is not there. Throws ``TimeFeedError/sharedMemoryRefused(unit:_:)`` when
    /// the segment belongs to another user (units 0 and 1 are root's when chronyd made them),
    /// ``TimeFeedError/sharedMemoryMismatch(unit:)`` when one of another size holds the key.
    public init(unit: Int) throws(TimeFeedError) {
        precondition(unit >= 0 && unit <= 255, "an NTP SHM unit is 0 to 255")
        let mode: Int32 = unit <= 1 ? 0o600 : 0o666
        do {
            attached = try SharedMemorySegment(key: Self.key(unit: unit), size: MemoryLayout<gpsfix_shm_time>.size, mode: mode)
        } catch {
            switch (error.call, error.error) {
            case ("shmget", .permissionDenied), ("shmget", .notPermitted), ("shmat", .permissionDenied):
                throw .sharedMemoryRefused(unit: unit, error.error)
            case ("shmget", .invalidArgument):
                throw .sharedMemoryMismatch(unit: unit)
            default:
                throw .system(call: error.call, error.error)
            }
        }
        self.unit = unit
        segment = attached.address.bindMemory(to: gpsfix_shm_time.self, capacity: 1)
    }

    /// Writes `sample`: the receiver's time as the clock's, the arrival as the system's.
    public func store(_ sample: TimeSample) {
        let clock = Self.split(sample.trueTime), receive = Self.split(sample.arrival)
        gpsfix_shm_store(segment, clock.seconds, clock.nanoseconds, receive.seconds, receive.nanoseconds, Self.precision, 0)
    }

    /// log2 of a pulse's expected jitter: -20, about a microsecond, as gpsd says of PPS.
    public static let pulsePrecision: Int32 = -20

    /// Writes a pulse: its second as the clock's time, the edge as the system's, to the
    /// nanosecond.
    public func store(_ sample: PulseSample) {
        gpsfix_shm_store(segment, sample.second, 0, sample.pulse.seconds, Int(sample.pulse.nanoseconds), Self.pulsePrecision, 0)
    }

    private static func split(_ seconds: Double) -> (seconds: Int64, nanoseconds: Int) {
        let whole = seconds.rounded(.down)
        return (Int64(whole), min(Int(((seconds - whole) * 1e9).rounded()), 999_999_999))
    }
}
