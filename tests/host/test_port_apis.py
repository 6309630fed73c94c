"""The device code against each port's published stubs (host_tools/device/port_check.py): an API
that a port does not have fails here. The first run installs the pinned stubs into build/stubs.

Each port's mypy run checks a planted probe beside the device code (a call that port lacks, or
has): one run a port serves both tests (2.5-3.5 CPU seconds each)."""

import pytest

from host_tools.device import port_check

pytestmark = pytest.mark.usefixtures("port_stubs")

# rp2 has no machine.Encoder (the ESP32 PCNT driver), CircuitPython's time no sleep_ms.
ENCODER = "import machine\nmachine.Encoder(0, machine.Pin(1), machine.Pin(2))\n"
SLEEP_MS = "import time\ntime.sleep_ms(5)\n"
PROBES = {"rp2": ENCODER, "esp32": ENCODER, "circuitpython": SLEEP_MS}


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    """checked(port): mypy's problems in the device code, and its errors in the port's probe,
    from one run of the port's check."""
    folder = tmp_path_factory.mktemp("probes")
    found = {}

    def problems(port):
        if port not in found:
            probe = str(folder / ("probe_%s.py" % port))
            with open(probe, "w") as f:
                f.write(PROBES[port])
            lines = port_check.check(port, [probe])
            found[port] = ([line for line in lines if not line.startswith(probe)],
                           [line.split("error: ")[1] for line in lines if line.startswith(probe)])
        return found[port]
    return problems


@pytest.mark.parametrize("port", sorted(port_check.PORTS))
def test_the_device_code_uses_only_what_the_port_has(checked, port):
    assert checked(port)[0] == []


def test_a_call_the_port_lacks_is_caught(checked):
    assert checked("rp2")[1] == ['Module has no attribute "Encoder"  [attr-defined]']
    assert checked("esp32")[1] == []
    assert checked("circuitpython")[1] == [
        'Module has no attribute "sleep_ms"; maybe "sleep"?  [attr-defined]']
