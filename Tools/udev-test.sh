#!/bin/sh
# Runs `udevadm test` on gpsfix's udev rules without touching the machine's /dev, /run or rules.
#
#   Tools/udev-test.sh RULES_FILE [VID:PID:KERNEL ...]
#   e.g. Tools/udev-test.sh udev/60-gpsfix.rules 1546:01a8:ttyACM0 067b:2303:ttyUSB1
#
# Everything happens in a private mount namespace (unshare -m, propagation private) with tmpfs
# mounted over /run, /dev, the udev rules directories and, for the fake devices, /sys; when the
# namespace ends, so do the mounts. The machine's /dev and /run are never written.
#
#  1. The rules file alone (the system's rules hidden) is tested against a real tty
#     (/sys/class/tty/ttyS0, or tty0): udevadm needs a real device to run at all, and it reports
#     what it could not parse as "FILE:LINE message" lines.
#  2. For each VID:PID:KERNEL, a fake USB serial device is built in a tmpfs /sys, laid out as the
#     kernel does (USB device with idVendor/idProduct > interface > [usb-serial port >] tty),
#     and `udevadm test --action=add` runs on it, so the output shows what the rules would do to
#     such a receiver: LINK, GROUP, MODE, ID_MM_DEVICE_IGNORE. ttyACM* is laid out as cdc_acm,
#     anything else as a usb-serial port (ttyUSB*). SYSTEMD_DEVICE_VERIFY_SYSFS=0 lets udev
#     accept a /sys that is not sysfs (systemd >= 251; older udev refuses the fake devices, and
#     says so in their sections).
#
# udevadm test exits 0 whatever the rules say, so this script does not judge: it prints each run's
# output after a line "=== <what>" and ends with "=== end". The caller (the GPSSources tests) reads it.
# Exit status: 0 ran, 77 cannot run here (not root, no unshare or udevadm), 1 setup failed.

set -eu

if [ "$#" -lt 1 ] || [ ! -f "$1" ]; then
    echo "usage: $0 RULES_FILE [VID:PID:KERNEL ...]" >&2
    exit 1
fi

if [ "${GPSFIX_UDEV_TEST_INSIDE:-}" != 1 ]; then
    [ "$(id -u)" = 0 ] || { echo "skip: udev rules test needs root (for unshare -m and mount)" >&2; exit 77; }
    command -v unshare >/dev/null 2>&1 || { echo "skip: unshare not found (util-linux)" >&2; exit 77; }
    command -v udevadm >/dev/null 2>&1 || { echo "skip: udevadm not found (udev/systemd)" >&2; exit 77; }
    rules=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
    shift
    GPSFIX_UDEV_TEST_INSIDE=1 exec unshare --mount --propagation private sh "$0" "$rules" "$@"
fi

# --- inside the private mount namespace from here on ---
rules=$1
shift
name=$(basename "$rules")
copy=$(mktemp)          # the rules must outlive the tmpfs mounted over their directory
trap 'rm -f "$copy"' EXIT
cp "$rules" "$copy"

# A real tty for the parse check, found before /sys is replaced.
real=""
for candidate in /sys/class/tty/ttyS0 /sys/class/tty/tty0 /sys/class/tty/console; do
    if [ -e "$candidate/dev" ]; then real=$candidate; break; fi
done

mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /dev
mknod -m 666 /dev/null c 1 3
# Only our file: hide every directory udev reads rules from.
for dir in /etc/udev/rules.d /run/udev/rules.d /usr/local/lib/udev/rules.d /usr/lib/udev/rules.d /lib/udev/rules.d; do
    if [ -d "$dir" ] && [ ! -L "$dir" ]; then mount -t tmpfs tmpfs "$dir"; fi
done
mkdir -p /etc/udev/rules.d
cp "$copy" "/etc/udev/rules.d/$name"

if [ -n "$real" ]; then
    devnum=$(cat "$real/dev")
    kernel=$(basename "$real")
    mknod "/dev/$kernel" c "${devnum%%:*}" "${devnum##*:}"
    echo "=== real $real"
    udevadm test --action=add "$real" 2>&1 || true
else
    echo "=== real none (no ttyS0, tty0 or console in /sys/class/tty)"
fi

if [ "$#" -gt 0 ]; then
    mount -t tmpfs tmpfs /sys
    mkdir -p /sys/class/tty /sys/bus/usb/drivers/usb /sys/bus/usb-serial/drivers
    n=0
    for spec in "$@"; do
        n=$((n + 1))
        vid=${spec%%:*}; rest=${spec#*:}; pid=${rest%%:*}; kernel=${rest#*:}
        number=${kernel##*[!0-9]}
        usbdev=/sys/devices/pci0000:00/0000:00:14.0/usb1/1-$n
        iface=$usbdev/1-$n:1.0
        mkdir -p "$iface"
        printf '%s\n' "$vid" > "$usbdev/idVendor"
        printf '%s\n' "$pid" > "$usbdev/idProduct"
        printf 'DEVTYPE=usb_device\nDRIVER=usb\n' > "$usbdev/uevent"
        ln -s /sys/bus/usb "$usbdev/subsystem"
        ln -s /sys/bus/usb/drivers/usb "$usbdev/driver"
        ln -s /sys/bus/usb "$iface/subsystem"
        case $kernel in
            ttyACM*)
                driver=cdc_acm; major=166; parent=$iface
                printf 'DEVTYPE=usb_interface\nDRIVER=cdc_acm\n' > "$iface/uevent"
                mkdir -p /sys/bus/usb/drivers/cdc_acm
                ln -s /sys/bus/usb/drivers/cdc_acm "$iface/driver"
                ;;
            *)
                driver=pl2303; major=188; parent=$iface/$kernel
                printf 'DEVTYPE=usb_interface\nDRIVER=%s\n' "$driver" > "$iface/uevent"
                mkdir -p "$parent" /sys/bus/usb/drivers/$driver /sys/bus/usb-serial/drivers/$driver
                ln -s /sys/bus/usb/drivers/$driver "$iface/driver"
                printf 'DRIVER=%s\n' "$driver" > "$parent/uevent"
                ln -s /sys/bus/usb-serial "$parent/subsystem"
                ln -s /sys/bus/usb-serial/drivers/$driver "$parent/driver"
                ;;
        esac
        tty=$parent/tty/$kernel
        mkdir -p "$tty"
        printf 'MAJOR=%s\nMINOR=%s\nDEVNAME=%s\n' "$major" "$number" "$kernel" > "$tty/uevent"
        printf '%s:%s\n' "$major" "$number" > "$tty/dev"
        ln -s /sys/class/tty "$tty/subsystem"
        ln -s "$parent" "$tty/device"
        ln -s "$tty" "/sys/class/tty/$kernel"
        mknod "/dev/$kernel" c "$major" "$number"
        echo "=== fake $vid:$pid $kernel ($driver)"
        SYSTEMD_DEVICE_VERIFY_SYSFS=0 udevadm test --action=add "/sys/class/tty/$kernel" 2>&1 || true
    done
fi
echo "=== end"
