"""Carmony, Through the Looking Glass: when a Wheel card picks an INTERVAL card up with a hand
card. Apart from the rule engine (core/games/looking_glass.py) so that the device's table mode
uses the same rule without loading the engine."""


def builds(interval, first_pc, second_pc):
    """Do two notes build the interval (semitones 1..12) with `first_pc` on position 1?"""
    return (second_pc - first_pc) % 12 == interval % 12


def picks_up(interval, hand_pc, wheel_mask):
    """The sectors of `wheel_mask` (a pitch-class mask of the sectors holding a card) whose
    card builds the interval with the hand card, either card on position 1; a mask. Those are
    the sectors the interval above the hand card and below it (builds())."""
    return ((1 << (hand_pc + interval) % 12) | (1 << (hand_pc - interval) % 12)) & wheel_mask
