"""The device application: boot, main loop, modes, rendering, storage, safe mode."""
