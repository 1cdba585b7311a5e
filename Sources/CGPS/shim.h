// libgps (Debian libgps-dev) for Swift. gps_data_t changed shape across API 7, 9, 10 and 11;
// the Swift side reads it in one file (Sources/GPSSources/Gpsd/GpsdFields.swift) written for
// API 11 (gpsd 3.21 to 3.24). Any other version must not build silently against it.
#ifndef GPSFIX_CGPS_SHIM_H
#define GPSFIX_CGPS_SHIM_H

#include <gps.h>
#include <stdint.h>

#if GPSD_API_MAJOR_VERSION != 11
#error "gpsfix supports libgps API 11 only (gpsd 3.21-3.24); see Sources/GPSSources/Gpsd/GpsdFields.swift"
#endif

// The mask bits and flags as typed constants (Swift does not import every macro form).
static const uint64_t cgps_satellite_set = SATELLITE_SET;
static const uint64_t cgps_mode_set = MODE_SET;
static const uint64_t cgps_latlon_set = LATLON_SET;
static const unsigned int cgps_watch_enable_json = WATCH_ENABLE | WATCH_JSON;
static const unsigned int cgps_watch_enable_json_nmea = WATCH_ENABLE | WATCH_JSON | WATCH_NMEA;
static const int cgps_max_channels = MAXCHANNELS;

#endif
