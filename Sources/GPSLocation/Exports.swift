// The location layer speaks in the engine's value types (Fix, SkyView, Coordinate …), so every
// client of this module gets them without importing the engine by name.
@_exported public import NMEA
