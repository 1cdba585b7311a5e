// The one use of FoundationEssentials below the CLI, kept in a file of its own: it links that
// library into every app and into gpsfix (the static release binary grew from 18.1 to 27.6 MB),
// which is the price of `error.localizedDescription` saying what happened rather than
// "The operation could not be completed. (GPSLocation.LocationError error 7.)".
public import FoundationEssentials

extension LocationError: LocalizedError {
    /// The same words as `description`, for `localizedDescription`.
    public var errorDescription: String? { description }
}
