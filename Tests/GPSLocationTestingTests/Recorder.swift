import NMEA
import GPSLocation
import Glibc
import Synchronization

/// A delegate that keeps every call, with the thread it came on.
final class Recorder: LocationManagerDelegate {
    enum Call: Equatable, Sendable {
        case fix(Fix)
        case sky(SkyView)
        case status(SourceStatus)
        case failure(LocationError)
        case sentence(String)
        case note(ReceiverNote)
    }

    private let state = Mutex<(calls: [Call], threads: [pthread_t])>(([], []))
    /// Called after each call is recorded, on the delivering thread.
    let onCall: (@Sendable (Recorder, Call) -> Void)?

    init(onCall: (@Sendable (Recorder, Call) -> Void)? = nil) { self.onCall = onCall }

    var calls: [Call] { state.withLock { $0.calls } }
    var threads: [pthread_t] { state.withLock { $0.threads } }

    private func record(_ call: Call) {
        state.withLock { $0.calls.append(call); $0.threads.append(pthread_self()) }
        onCall?(self, call)
    }

    func locationManager(_ manager: any LocationManagerInterface, didUpdateFix fix: Fix) { record(.fix(fix)) }
    func locationManager(_ manager: any LocationManagerInterface, didUpdateSkyView sky: SkyView) { record(.sky(sky)) }
    func locationManager(_ manager: any LocationManagerInterface, didChangeStatus status: SourceStatus) { record(.status(status)) }
    func locationManager(_ manager: any LocationManagerInterface, didFailWithError error: LocationError) { record(.failure(error)) }
    func locationManager(_ manager: any LocationManagerInterface, didReceiveSentence sentence: String) { record(.sentence(sentence)) }
    func locationManager(_ manager: any LocationManagerInterface, didReceiveNote note: ReceiverNote) { record(.note(note)) }
}
