// libmosquitto (Debian libmosquitto-dev) for Swift. Every call into it is made from one file,
// Sources/GPSMQTT/MosquittoConnection.swift, on one thread. The external-loop calls it uses
// (mosquitto_socket, mosquitto_loop_read/_write/_misc, mosquitto_want_write) and TLS options
// are in every 1.6 and 2.x release.
#ifndef GPSFIX_CMOSQUITTO_SHIM_H
#define GPSFIX_CMOSQUITTO_SHIM_H

#include <mosquitto.h>
// MQTT 5's property and reason codes (a reader's Maximum Packet Size), in every 1.6 and 2.x:
// in 2.1 (Debian unstable) mosquitto.h brings them itself, and the old header only warns.
#ifndef MQTT_PROTOCOL_H
#include <mqtt_protocol.h>
#endif

#if LIBMOSQUITTO_MAJOR < 1 || (LIBMOSQUITTO_MAJOR == 1 && LIBMOSQUITTO_MINOR < 6)
#error "gpsfix needs libmosquitto 1.6 or later"
#endif

#endif
