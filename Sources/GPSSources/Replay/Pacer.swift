import NMEA
import GPSLocation

/// Turns a capture's timestamps into waits on a clock (monotonic seconds: the run's
/// `WaitClock`, virtual in tests).
struct Pacer {
    let speed: ReplayManager.Speed
    private var last: Int?
    private var target = 0.0

    init(speed: ReplayManager.Speed) { self.speed = speed }

    /// Seconds to wait, from `now`, before delivering a fix stamped `time`; nil for no wait.
    mutating func delay(until time: FixTime?, now: Double) -> Double? {
        guard case .factor(let factor) = speed, factor > 0, let time else { return nil }
        var ms = time.millisecondsSinceEpoch ?? time.time.milliseconds
        guard let last else {
            self.last = ms
            target = now
            return nil
        }
        // Without a date, midnight looks like a jump back by a day.
        if time.date == nil && ms < last - 43_200_000 { ms += 86_400_000 }
        self.last = ms
        // A jump back, or forward by more than a minute, is a gap in the capture, not a
        // reason to sit still.
        let step = ms - last
        if step > 0 && step <= 60_000 {
            // At most a minute of waiting per step, whatever the factor.
            target += min(Double(step) / factor, 60_000) / 1000
        }
        // Far behind (a slow consumer): catch up rather than rush through a backlog.
        if now - target > 1 { target = now }
        return target - now
    }
}
