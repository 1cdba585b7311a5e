import GPSSystem
import GPSLocation

extension WriteFailure {
    /// What a person reads when output could not be written: what and why, and what to do
    /// where the cause has a usual remedy.
    var message: String {
        switch SystemError(rawValue: code) {
        case .noSpace, .quotaExceeded:
            "\(self). Free some space, or write elsewhere."
        case .fileTooLarge:
            "\(self). The file has reached the largest size allowed ('ulimit -f' shows the limit)."
        case .badDescriptor where destination == .standardOutput:
            "\(self). Was gpsfix started with its output closed (>&-)?"
        default:
            "\(self)."
        }
    }
}
