public import NMEA
public import GPSLocation

/// A run's events as one list: the stream's elements, then its failure as `.error`, for tests
/// that compare whole runs; `finished` is false when the stream did not end within `limit`.
public func collect(_ updates: LocationUpdates<LocationEvent>, within limit: Duration = .seconds(10)) async
    -> (elements: [LocationEvent], finished: Bool) {
    let drained = await drain(updates, within: limit)
    return (drained.elements + (drained.error.map { [.error($0)] } ?? []), drained.finished)
}

/// The fixes a stream of positions gave until it ended (by its end, or by a failure).
public func collect(_ positions: LocationUpdates<Fix>, within limit: Duration = .seconds(10)) async -> (elements: [Fix], finished: Bool) {
    let drained = await drain(positions, within: limit)
    return (drained.elements, drained.finished)
}
