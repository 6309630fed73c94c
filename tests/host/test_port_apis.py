"""The device code against each port's published stubs (host_tools/device/port_check.py): an API
that a port does not have fails here. The first run installs the pinned stubs into build/stubs."""

import pytest

from host_tools.device import port_check

pytestmark = pytest.mark.usefixtures("port_stubs")


@pytest.mark.parametrize("port", sorted(port_check.PORTS))
def test_the_device_code_uses_only_what_the_port_has(port):
    assert port_check.check(port) == []


def test_a_call_the_port_lacks_is_caught(tmp_path):
    # rp2 has no machine.Encoder (the ESP32 PCNT driver), CircuitPython's time no sleep_ms.
    probe = tmp_path / "probe.py"
    probe.write_text("import machine\nmachine.Encoder(0, machine.Pin(1), machine.Pin(2))\n")
    assert [line.split("error: ")[1] for line in port_check.check("rp2", [str(probe)])] == [
        'Module has no attribute "Encoder"  [attr-defined]']
    assert port_check.check("esp32", [str(probe)]) == []
    probe.write_text("import time\ntime.sleep_ms(5)\n")
    assert [line.split("error: ")[1] for line in
            port_check.check("circuitpython", [str(probe)])] == [
        'Module has no attribute "sleep_ms"; maybe "sleep"?  [attr-defined]']
