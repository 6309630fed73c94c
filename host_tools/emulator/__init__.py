"""The real ports in an emulated RP2040, and the board models the tests put at the pins."""
