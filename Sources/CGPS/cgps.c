// The one place that knows gps_data_t: compiled against the installed <gps.h>, it copies what
// gpsfix reads into cgps.h's records. Every difference between libgps releases is here.
#include "cgps.h"

#include <gps.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

// API 11 is gpsd 3.22, 12 is 3.23, 14 is 3.24 to 3.26, 16 is 3.27 (gpsd's include/gps.h).
#if !defined(GPSD_API_MAJOR_VERSION) || GPSD_API_MAJOR_VERSION < 11 || GPSD_API_MAJOR_VERSION > 16
#error "gpsfix supports libgps API 11 to 16 (gpsd 3.22 to 3.27): install a libgps-dev in that range"
#endif

struct cgps_reader {
    struct gps_data_t data;
};

cgps_reader *cgps_reader_create(void) {
    // 24 KB and more: on the heap, zeroed, and never copied.
    return calloc(1, sizeof(struct cgps_reader));
}

void cgps_reader_destroy(cgps_reader *reader) { free(reader); }

bool cgps_reader_unpack(cgps_reader *reader, const char *line) {
    struct gps_data_t *data = &reader->data;
    // libgps keeps what earlier reports set: each report is read on its own.
    data->set = 0;
    gps_clear_fix(&data->fix);
    gps_clear_dop(&data->dop);
    data->satellites_used = -1;
    data->satellites_visible = 0;
    memset(&data->skyview_time, 0, sizeof data->skyview_time);
#if GPSD_API_MAJOR_VERSION >= 12
    // const from API 12 on; 3.22 takes char * and does not write to it.
    return gps_unpack(line, data) == 0;
#else
    return gps_unpack((char *)line, data) == 0;
#endif
}

static cgps_status status_of(int status) {
    switch (status) {
#if GPSD_API_MAJOR_VERSION >= 12
    case STATUS_GPS: return CGPS_STATUS_GPS;
    case STATUS_DGPS: return CGPS_STATUS_DGPS;
#else
    case STATUS_FIX: return CGPS_STATUS_GPS;
    case STATUS_DGPS_FIX: return CGPS_STATUS_DGPS;
#endif
    case STATUS_RTK_FIX: return CGPS_STATUS_RTK_FIXED;
    case STATUS_RTK_FLT: return CGPS_STATUS_RTK_FLOAT;
    case STATUS_DR: return CGPS_STATUS_DEAD_RECKONING;
    case STATUS_GNSSDR: return CGPS_STATUS_GNSS_DEAD_RECKONING;
    case STATUS_TIME: return CGPS_STATUS_TIME_ONLY;
    case STATUS_SIM: return CGPS_STATUS_SIMULATED;
    case STATUS_PPS_FIX: return CGPS_STATUS_PPS;
    default: return CGPS_STATUS_UNKNOWN;
    }
}

void cgps_reader_fix(const cgps_reader *reader, cgps_fix *out) {
    const struct gps_fix_t *fix = &reader->data.fix;
    out->mode = fix->mode;
    out->status = status_of(fix->status);
    out->time_seconds = (int64_t)fix->time.tv_sec;
    out->time_nanoseconds = (int64_t)fix->time.tv_nsec;
    out->latitude = fix->latitude;
    out->longitude = fix->longitude;
    out->altitude_msl = fix->altMSL;
    out->altitude_hae = fix->altHAE;
    out->geoid_separation = fix->geoid_sep;
    out->speed = fix->speed;
    out->track = fix->track;
    out->climb = fix->climb;
    out->magnetic_variation = fix->magnetic_var;
    out->epx = fix->epx;
    out->epy = fix->epy;
    out->epv = fix->epv;
    out->eph = fix->eph;
    out->sep = fix->sep;
    out->eps = fix->eps;
    out->epd = fix->epd;
    out->epc = fix->epc;
    out->ept = fix->ept;
    out->magnetic_track = fix->magnetic_track;
    out->depth = fix->depth;
    out->wind_angle_magnetic = fix->wanglem;
    out->wind_angle_relative = fix->wangler;
    out->wind_angle_true = fix->wanglet;
    out->wind_speed_relative = fix->wspeedr;
    out->wind_speed_true = fix->wspeedt;
}

bool cgps_reader_attitude(const cgps_reader *reader, cgps_attitude *out) {
    // Before API 12 the attitude shares a union with other reports: only an ATT's is one.
    if ((reader->data.set & ATTITUDE_SET) == 0) return false;
    const struct attitude_t *attitude = &reader->data.attitude;
    out->heading = attitude->heading;
    out->pitch = attitude->pitch;
    out->roll = attitude->roll;
    return true;
}

int cgps_reader_fix_satellites_used(const cgps_reader *reader) {
    return reader->data.satellites_used;
}

static void copy_dop(const struct dop_t *dop, cgps_dop *out) {
    out->pdop = dop->pdop;
    out->hdop = dop->hdop;
    out->vdop = dop->vdop;
    out->tdop = dop->tdop;
    out->xdop = dop->xdop;
    out->ydop = dop->ydop;
    out->gdop = dop->gdop;
}

void cgps_reader_fix_dop(const cgps_reader *reader, cgps_dop *out) { copy_dop(&reader->data.dop, out); }

void cgps_reader_sky(const cgps_reader *reader, cgps_sky *out) {
    const struct gps_data_t *data = &reader->data;
    out->time_seconds = (int64_t)data->skyview_time.tv_sec;
    out->time_nanoseconds = (int64_t)data->skyview_time.tv_nsec;
    int visible = data->satellites_visible;
    out->satellites_visible = visible < 0 ? 0 : (visible > MAXCHANNELS ? MAXCHANNELS : visible);
    out->satellites_used = data->satellites_used;
    copy_dop(&data->dop, &out->dop);
}

bool cgps_reader_satellite(const cgps_reader *reader, int index, cgps_satellite *out) {
    const struct gps_data_t *data = &reader->data;
    if (index < 0 || index >= MAXCHANNELS || index >= data->satellites_visible) return false;
    const struct satellite_t *entry = &data->skyview[index];
    out->prn = entry->PRN;
    out->gnssid = entry->gnssid;
    out->svid = entry->svid;
    out->elevation = entry->elevation;
    out->azimuth = entry->azimuth;
    out->ss = entry->ss;
    out->used = entry->used;
    return true;
}

int cgps_api_major(void) { return GPSD_API_MAJOR_VERSION; }
int cgps_api_minor(void) { return GPSD_API_MINOR_VERSION; }
int cgps_max_satellites(void) { return MAXCHANNELS; }
