"""The simulator and the virtual board: the firmware on the MicroPython unix port."""
