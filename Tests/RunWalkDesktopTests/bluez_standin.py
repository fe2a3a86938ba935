#!/usr/bin/python3
"""A BlueZ stand-in for the heart-rate tests (issue 32): owns org.bluez on the bus it is given
(DBUS_SYSTEM_BUS_ADDRESS) and serves the parts of BlueZ's D-Bus API a heart-rate client uses,
as the org.bluez.*(5) man pages describe them: ObjectManager at /, Adapter1 discovery with a
filter, Device1 Connect/Disconnect with Connected and ServicesResolved, GattService1 and
GattCharacteristic1 objects (Heart Rate Measurement 2a37 notifying through PropertiesChanged
of Value, Battery Level 2a19 read). bluetoothd itself needs a controller this machine lacks.

Arguments: --drop-after S --drop-for D: S seconds after notifications start, the strap goes
out of range for D seconds (disconnected, GATT objects removed, Connect fails meanwhile).
A strap that is not a heart-rate strap (headphones) is also around, to be ignored;
--second-strap adds another heart-rate strap, found by the same discovery.
"""
import argparse
import sys
import time

import dbus
import dbus.service
import dbus.mainloop.glib
from gi.repository import GLib

BASE = "0000%s-0000-1000-8000-00805f9b34fb"
OM = "org.freedesktop.DBus.ObjectManager"
PROPS = "org.freedesktop.DBus.Properties"
ADAPTER = "/org/bluez/hci0"


class Obj(dbus.service.Object):
    """An object with properties per interface, GetAll/Get, and PropertiesChanged."""

    def __init__(self, bus, path, interfaces):
        super().__init__(bus, path)
        self.path = path
        self.interfaces = interfaces  # {interface: {name: value}}

    def set(self, interface, name, value):
        self.interfaces[interface][name] = value
        self.PropertiesChanged(interface, {name: value}, [])

    @dbus.service.method(PROPS, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return self.interfaces[interface][name]

    @dbus.service.method(PROPS, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return self.interfaces.get(interface, {})

    @dbus.service.signal(PROPS, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass


class Root(dbus.service.Object):
    def __init__(self, bus):
        super().__init__(bus, "/")
        self.objects = {}

    def add(self, obj):
        self.objects[obj.path] = obj
        self.InterfacesAdded(dbus.ObjectPath(obj.path), obj.interfaces)

    def remove(self, path):
        obj = self.objects.pop(path, None)
        if obj is not None:
            self.InterfacesRemoved(dbus.ObjectPath(path), list(obj.interfaces.keys()))
            obj.remove_from_connection()

    @dbus.service.method(OM, out_signature="a{oa{sa{sv}}}")
    def GetManagedObjects(self):
        return {dbus.ObjectPath(p): o.interfaces for p, o in self.objects.items()}

    @dbus.service.signal(OM, signature="oa{sa{sv}}")
    def InterfacesAdded(self, path, interfaces):
        pass

    @dbus.service.signal(OM, signature="oas")
    def InterfacesRemoved(self, path, interfaces):
        pass


class Adapter(Obj):
    def __init__(self, bus, root, strap):
        super().__init__(bus, ADAPTER, {"org.bluez.Adapter1": {
            "Address": "00:1A:7D:DA:71:13", "Powered": True, "Discovering": False}})
        self.root = root
        self.strap = strap
        self.filter = None

    @dbus.service.method("org.bluez.Adapter1", in_signature="a{sv}")
    def SetDiscoveryFilter(self, properties):
        self.filter = [str(u) for u in properties.get("UUIDs", [])]
        log("filter", self.filter, str(properties.get("Transport", "")))

    @dbus.service.method("org.bluez.Adapter1")
    def StartDiscovery(self):
        log("discovery on")
        self.set("org.bluez.Adapter1", "Discovering", True)
        GLib.timeout_add(200, self.found)

    def found(self):
        for device in (self.strap, self.strap.headphones, self.strap.second):
            if device is None:
                continue
            if device.path not in self.root.objects:
                self.root.add(device)
        return False

    @dbus.service.method("org.bluez.Adapter1")
    def StopDiscovery(self):
        log("discovery off")
        self.set("org.bluez.Adapter1", "Discovering", False)


class Characteristic(Obj):
    def __init__(self, bus, path, service, uuid, flags, value):
        super().__init__(bus, path, {"org.bluez.GattCharacteristic1": {
            "UUID": BASE % uuid, "Service": dbus.ObjectPath(service), "Flags": dbus.Array(flags, signature="s"),
            "Notifying": False, "Value": dbus.Array(value, signature="y")}})
        self.timer = None
        self.beats = 0

    @dbus.service.method("org.bluez.GattCharacteristic1", in_signature="a{sv}", out_signature="ay")
    def ReadValue(self, options):
        return self.interfaces["org.bluez.GattCharacteristic1"]["Value"]

    @dbus.service.method("org.bluez.GattCharacteristic1")
    def StartNotify(self):
        log("notify on", self.path)
        self.set("org.bluez.GattCharacteristic1", "Notifying", True)
        if self.timer is None:
            self.timer = GLib.timeout_add(1000, self.notify)
            STRAP.notifications_started()

    @dbus.service.method("org.bluez.GattCharacteristic1")
    def StopNotify(self):
        self.stop()

    def stop(self):
        if self.timer is not None:
            GLib.source_remove(self.timer)
            self.timer = None

    def notify(self):
        # flags: uint8 value, contact detected, RR present; 140..149 bpm; one RR interval.
        bpm = 140 + self.beats % 10
        self.beats += 1
        rr = int(60 / bpm * 1024)
        value = dbus.Array([0x16, bpm, rr & 0xFF, rr >> 8], signature="y")
        self.set("org.bluez.GattCharacteristic1", "Value", value)
        log("sent", bpm)
        return True


class Device(Obj):
    def __init__(self, bus, root, address, name, uuids, gatt):
        path = ADAPTER + "/dev_" + address.replace(":", "_")
        super().__init__(bus, path, {"org.bluez.Device1": {
            "Address": address, "Name": name, "Alias": name, "Adapter": dbus.ObjectPath(ADAPTER),
            "UUIDs": dbus.Array([BASE % u for u in uuids], signature="s"), "RSSI": dbus.Int16(-61),
            "Connected": False, "ServicesResolved": False}})
        self.root = root
        self.gatt = gatt
        self.bus = bus
        self.out_of_range = False
        self.characteristics = []
        self.started = None
        self.drop_after = None
        self.drop_for = None
        self.headphones = None
        self.second = None

    @dbus.service.method("org.bluez.Device1")
    def Connect(self):
        if self.out_of_range or not self.gatt:
            log("connect refused", self.path)
            raise dbus.exceptions.DBusException("Software caused connection abort", name="org.bluez.Error.Failed")
        log("connect", self.path)
        self.set("org.bluez.Device1", "Connected", True)
        GLib.timeout_add(150, self.resolve)

    def resolve(self):
        base = self.path
        self.root.add(Obj(self.bus, base + "/service000c", {"org.bluez.GattService1": {
            "UUID": BASE % "180d", "Primary": True, "Device": dbus.ObjectPath(base)}}))
        hr = Characteristic(self.bus, base + "/service000c/char000d", base + "/service000c", "2a37", ["notify"], [])
        self.root.add(Obj(self.bus, base + "/service0010", {"org.bluez.GattService1": {
            "UUID": BASE % "180f", "Primary": True, "Device": dbus.ObjectPath(base)}}))
        battery = Characteristic(self.bus, base + "/service0010/char0011", base + "/service0010", "2a19", ["read"], [87])
        self.characteristics = [hr, battery]
        for c in self.characteristics:
            self.root.add(c)
        self.set("org.bluez.Device1", "ServicesResolved", True)
        return False

    @dbus.service.method("org.bluez.Device1")
    def Disconnect(self):
        self.drop_gatt()

    def drop_gatt(self):
        for c in self.characteristics:
            c.stop()
        self.set("org.bluez.Device1", "ServicesResolved", False)
        self.set("org.bluez.Device1", "Connected", False)
        for path in sorted([p for p in self.root.objects if p.startswith(self.path + "/")], reverse=True):
            self.root.remove(path)
        self.characteristics = []

    def notifications_started(self):
        if self.started is None and self.drop_after is not None:
            self.started = time.monotonic()
            GLib.timeout_add(int(self.drop_after * 1000), self.go_away)

    def go_away(self):
        log("out of range")
        self.out_of_range = True
        self.drop_gatt()
        GLib.timeout_add(int(self.drop_for * 1000), self.come_back)
        return False

    def come_back(self):
        log("in range")
        self.out_of_range = False
        return False


def log(*parts):
    print(time.monotonic(), *parts, flush=True)


STRAP = None


def main():
    global STRAP
    parser = argparse.ArgumentParser()
    parser.add_argument("--drop-after", type=float)
    parser.add_argument("--drop-for", type=float, default=3)
    parser.add_argument("--second-strap", action="store_true", help="a second heart-rate strap nearby")
    args = parser.parse_args()
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SystemBus()
    root = Root(bus)
    STRAP = Device(bus, root, "C0:FF:EE:00:12:34", "Polar H10 A1B2C3D4", ["180d", "180f"], gatt=True)
    STRAP.drop_after, STRAP.drop_for = args.drop_after, args.drop_for
    STRAP.headphones = Device(bus, root, "00:11:22:33:44:55", "Headphones", ["110b"], gatt=False)
    if args.second_strap:
        STRAP.second = Device(bus, root, "F0:0D:00:00:00:01", "TICKR 2", ["180d"], gatt=True)
    root.add(Adapter(bus, root, STRAP))
    name = dbus.service.BusName("org.bluez", bus)
    log("ready", name.get_name())
    GLib.MainLoop().run()


if __name__ == "__main__":
    sys.exit(main())
