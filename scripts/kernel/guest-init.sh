#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Stage 2 of the kernel test guest: PID 1 after switch_root into the host's root (see
# initramfs-init). Gives the guest a fresh /run (the host's, seen through 9p, holds stale sockets
# and pid files), runs the guest test script ($GUEST_TEST, normally guest-test.sh) with its output on the console and in the results
# share, and powers the machine off. It never decides a verdict itself: the host reads
# /kernel-test/results (one PASS or FAIL line per check) and requires the DONE marker.

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C.UTF-8 TERM=dumb
umask 022

# /tmp stays the overlay's (writable, throw-away) so that host paths under /tmp, such as a beacon
# binary built there, stay visible.
mount -t tmpfs tmpfs /run
mkdir -p /run/lock /dev/shm /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t devpts devpts /dev/pts
# What udev would add to devtmpfs: bash's process substitution needs /dev/fd.
ln -sfn /proc/self/fd /dev/fd
ln -sfn /proc/self/fd/0 /dev/stdin
ln -sfn /proc/self/fd/1 /dev/stdout
ln -sfn /proc/self/fd/2 /dev/stderr
# The loopback interface: harmless, and some tools expect it up.
ip link set lo up 2>/dev/null || true

results=/kernel-test
{
    echo "guest: kernel $(uname -r), $(nproc) CPUs, up $(cut -d' ' -f1 /proc/uptime) s"
    # shellcheck source=/dev/null
    . "$results/guest.env"
    bash "$GUEST_TEST"
    echo "guest: finished after $(cut -d' ' -f1 /proc/uptime) s"
} 2>&1 | tee "$results/guest.log"

sync
# Power off at once (no init system to ask); QEMU exits when the machine does.
echo o > /proc/sysrq-trigger
sleep 10
