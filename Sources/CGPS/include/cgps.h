// What gpsfix reads of libgps, the same on every libgps it supports (API 11 to 16, gpsd 3.22
// to 3.27). gps_data_t changes shape between releases and its status numbers change names;
// cgps.c is compiled against the installed gps.h and copies what gpsfix reads into these
// records, so every version difference lives in that one file and Swift never sees gps_data_t.
#ifndef GPSFIX_CGPS_H
#define GPSFIX_CGPS_H

#include <stdbool.h>
#include <stdint.h>

/// gpsd's fix status, in gpsfix's own numbering (gpsd renamed its constants at API 12).
typedef enum {
    CGPS_STATUS_UNKNOWN = 0,
    CGPS_STATUS_GPS = 1,
    CGPS_STATUS_DGPS = 2,
    CGPS_STATUS_RTK_FIXED = 3,
    CGPS_STATUS_RTK_FLOAT = 4,
    CGPS_STATUS_DEAD_RECKONING = 5,
    CGPS_STATUS_GNSS_DEAD_RECKONING = 6,
    CGPS_STATUS_TIME_ONLY = 7,
    CGPS_STATUS_SIMULATED = 8,
    CGPS_STATUS_PPS = 9,
} cgps_status;

/// One TPV. Unknown doubles are NaN; an unknown time is 0 s and 0 ns.
typedef struct {
    int mode;               // 0 not seen, 1 no fix, 2 2D, 3 3D
    cgps_status status;
    int64_t time_seconds;   // UTC, since 1970
    int64_t time_nanoseconds;
    double latitude, longitude;
    double altitude_msl, altitude_hae, geoid_separation;
    double speed, track, climb, magnetic_variation;
    double epx, epy, epv;
    double eph, sep, eps, epd, epc, ept, magnetic_track;
    // The instruments beside a receiver, as gpsd's TPV carries them (every API from 11 on):
    // depth below the transducer, metres; wind angles, degrees (magnetic direction, relative
    // to the bow, true direction); wind speeds, m/s (relative, true).
    double depth, wind_angle_magnetic, wind_angle_relative, wind_angle_true;
    double wind_speed_relative, wind_speed_true;
} cgps_fix;

/// One ATT: a heading sensor's degrees (true heading, pitch, roll). Unknown doubles are NaN.
typedef struct {
    double heading, pitch, roll;
} cgps_attitude;

typedef struct {
    double pdop, hdop, vdop, tdop, xdop, ydop, gdop;
} cgps_dop;

/// One satellite of a SKY.
typedef struct {
    int prn;        // NMEA 2.x-4.0 numbering
    int gnssid;     // u-blox numbering: 0 GPS, 1 SBAS, 2 Galileo, 3 BeiDou, 5 QZSS, 6 GLONASS
    int svid;       // 0 when gpsd did not say
    double elevation, azimuth, ss;
    bool used;
} cgps_satellite;

/// One SKY's header: its time, DOPs and how many satellites follow.
typedef struct {
    int64_t time_seconds;
    int64_t time_nanoseconds;
    int satellites_visible;
    int satellites_used;
    cgps_dop dop;
} cgps_sky;

/// One libgps gps_data_t, decoding report after report.
typedef struct cgps_reader cgps_reader;

/// NULL when out of memory.
cgps_reader *cgps_reader_create(void);
void cgps_reader_destroy(cgps_reader *reader);

/// Decodes one report with libgps's own parser (gps_unpack). `line` must be a whole report
/// that gpsfix wrote itself from what it checked: libgps's parser never returns on some
/// malformed input, so nothing a peer sent reaches it unchecked. What the report did not
/// carry reads as unknown afterwards. False when libgps did not take it.
bool cgps_reader_unpack(cgps_reader *reader, const char *line);

void cgps_reader_fix(const cgps_reader *reader, cgps_fix *fix);
/// The TPV's satellites used, when it said; -1 otherwise.
int cgps_reader_fix_satellites_used(const cgps_reader *reader);
void cgps_reader_fix_dop(const cgps_reader *reader, cgps_dop *dop);
void cgps_reader_sky(const cgps_reader *reader, cgps_sky *sky);
/// The report's attitude; false when it was no ATT.
bool cgps_reader_attitude(const cgps_reader *reader, cgps_attitude *attitude);
/// The satellite at `index` (below `satellites_visible`); false beyond.
bool cgps_reader_satellite(const cgps_reader *reader, int index, cgps_satellite *satellite);

/// The installed libgps's API (GPSD_API_MAJOR_VERSION), and how many satellites a SKY holds.
int cgps_api_major(void);
int cgps_api_minor(void);
int cgps_max_satellites(void);

#endif
