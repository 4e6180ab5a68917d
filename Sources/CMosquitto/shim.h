// SPDX-License-Identifier: GPL-2.0-or-later
// libmosquitto's client API and the MQTT protocol constants (reason codes, options) it names.
#ifndef BEACON_CMOSQUITTO_SHIM_H
#define BEACON_CMOSQUITTO_SHIM_H

#include <mosquitto.h>
#include <mqtt_protocol.h>

#endif
