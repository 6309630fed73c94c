"""Carmony, Through the Looking Glass: when a Wheel card picks an INTERVAL card up with a hand
card. Apart from the rule engine (core/games/looking_glass.py) so that the device's table mode
uses the same rule without loading the engine."""


def builds(interval, first_pc, second_pc):
    """Do two notes build the interval (semitones 1..12) with `first_pc` on position 1?"""
    return (second_pc - first_pc) % 12 == interval % 12


def picks_up(interval, hand_pc, wheel_mask):
    """The sectors of `wheel_mask` (a pitch-class mask of the sectors holding a card) whose
    card builds the interval with the hand card, either card on position 1; a mask."""
    found = 0
    for pc in range(12):
        if wheel_mask >> pc & 1 and (builds(interval, hand_pc, pc)
                                     or builds(interval, pc, hand_pc)):
            found |= 1 << pc
    return found
