// SPDX-License-Identifier: GPL-2.0-or-later
// The few kernel HCI socket operations beacon needs, as plain functions: Swift cannot import the
// ioctl request macros (_IOR/_IOW) or flexible array members, so they are wrapped here.
#ifndef BEACON_CBLUEZ_SHIM_H
#define BEACON_CBLUEZ_SHIM_H

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/hci_lib.h>

/// The event filter for a raw-channel socket (set with setsockopt(SOL_HCI, HCI_FILTER) through
/// beacon's system-call seam): only event packets of the kinds beacon waits for, Command
/// Complete, Command Status, Hardware Error and LE Meta.
static inline void beacon_hci_event_filter(struct hci_filter *f) {
    hci_filter_clear(f);
    hci_filter_set_ptype(HCI_EVENT_PKT, f);
    hci_filter_set_event(EVT_CMD_COMPLETE, f);
    hci_filter_set_event(EVT_CMD_STATUS, f);
    hci_filter_set_event(EVT_HARDWARE_ERROR, f);
    hci_filter_set_event(EVT_LE_META_EVENT, f);
}

/// Fills `ids` with up to `max` adapter ids (HCIGETDEVLIST); returns the count or -1.
static inline int beacon_hci_device_list(int fd, unsigned short *ids, int max) {
    if (max <= 0 || max > HCI_MAX_DEV) { errno = EINVAL; return -1; }
    char buf[sizeof(struct hci_dev_list_req) + HCI_MAX_DEV * sizeof(struct hci_dev_req)];
    struct hci_dev_list_req *req = (struct hci_dev_list_req *)buf;
    memset(buf, 0, sizeof buf);
    req->dev_num = (uint16_t)max;
    if (ioctl(fd, HCIGETDEVLIST, (void *)req) < 0) return -1;
    for (int i = 0; i < req->dev_num; i++) ids[i] = req->dev_req[i].dev_id;
    return req->dev_num;
}

/// What beacon shows about an adapter (from HCIGETDEVINFO).
struct beacon_device_info {
    unsigned short id;
    char name[8];
    unsigned char address[6]; // least-significant byte first, as the kernel keeps it
    int up;                   // HCI_UP flag
    int running;              // HCI_RUNNING flag
    unsigned char type;       // bus in the low nibble, HCI_PRIMARY/HCI_AMP above
};

static inline int beacon_hci_device_info(int fd, unsigned short id, struct beacon_device_info *out) {
    struct hci_dev_info di;
    memset(&di, 0, sizeof di);
    di.dev_id = id;
    if (ioctl(fd, HCIGETDEVINFO, (void *)&di) < 0) return -1;
    memset(out, 0, sizeof *out);
    out->id = di.dev_id;
    memcpy(out->name, di.name, sizeof out->name);
    out->name[sizeof out->name - 1] = 0;
    memcpy(out->address, &di.bdaddr, 6);
    out->up = hci_test_bit(HCI_UP, &di.flags) ? 1 : 0;
    out->running = hci_test_bit(HCI_RUNNING, &di.flags) ? 1 : 0;
    out->type = di.type;
    return 0;
}

/// Brings adapter `id` up (HCIDEVUP); needs CAP_NET_ADMIN. EALREADY means it already was.
static inline int beacon_hci_device_up(int fd, unsigned short id) {
    return ioctl(fd, HCIDEVUP, (unsigned long)id);
}

/// Takes adapter `id` down (HCIDEVDOWN), as the user channel requires; needs CAP_NET_ADMIN.
static inline int beacon_hci_device_down(int fd, unsigned short id) {
    return ioctl(fd, HCIDEVDOWN, (unsigned long)id);
}

#endif
