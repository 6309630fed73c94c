"""Two tiers (docs/testing.md says which to run when). `make check` runs the fast one: the core
cases on both interpreters and every test that needs no board in a subprocess (the simulator,
the virtual board), no emulated RP2040, no browser and no OpenSCAD render. `make test` runs
everything. Those slower tests are marked `board`: whole modules are listed here, single
tests carry @pytest.mark.board."""

import pytest

BOARD_MODULES = {
    "test_simulator.py", "test_table_modes.py", "test_faults.py", "test_vboard_e2e.py",
    "test_package.py", "test_port_apis.py", "test_rp2_port.py", "test_emulated_pico.py",
    "test_emulated_qtpy.py", "test_emulated_qtpy_parts.py", "test_emulated_qtpy_power.py",
    "test_frozen_uf2.py", "test_web.py", "test_web_build.py", "test_install.py",
    "test_enclosure.py",
}


def pytest_configure(config):
    config.addinivalue_line("markers", "board: runs the firmware on a subprocess, emulated or "
                            "browser board, or renders the enclosure (make test only, not "
                            "make check)")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.name in BOARD_MODULES:
            item.add_marker(pytest.mark.board)
