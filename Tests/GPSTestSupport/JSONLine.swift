import Foundation

/// One line of JSON (a gpsd report) as an object, or nil when it is not one.
public func jsonObject(_ line: String) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
}
