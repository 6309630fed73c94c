// A CPU spinning on the timer moves on in steps of emulated time, not one read at a time.
//
// CircuitPython's power-up waits out its double-tap and safe-mode windows (1.2 s) in a busy
// loop on the RP2040's timer (pico-sdk busy_wait_until: TIMERAWH, TIMERAWL, compare, again),
// some 70 million emulated instructions, 3 CPU seconds of every QT Py boot here, where a chip
// simply waits. Here, once the CPU has read the timer from the same two instructions, at
// most NEAR_NS (20 cycles) apart, for SPIN_NS of emulated time on end, each further read of
// the loop first lets STEP_NS pass (the clock jumps, as when the CPU sleeps). The loop seen
// there is 13 cycles a read: two timer reads (3 cycles each), a compare and a branch; 20
// cycles leave no room for a loop that also drives a pin or a bus between its reads, which
// would then run fewer rounds (none such is known here). A wait ends at most STEP_NS after its
// deadline, and only once it has spun for SPIN_NS (a wait of microseconds, as a bit-banged
// bus's, never reaches that). A step never passes an alarm (a timer interrupt, the knob's next
// edge), a state machine's next tick or the paced clock's limit (pico.cjs), so they come at
// their own time as before.
'use strict';

const SPIN_NS = 200000;          // a loop this long on the timer alone is a wait: 200 us
const STEP_NS = 1000;            // then the clock moves 1 us a round
const NEAR_NS = 160;             // reads this close (20 cycles) are one loop's
const COUNTS = new Set([0x08, 0x0c, 0x24, 0x28]);    // TIMEHR, TIMELR, TIMERAWH, TIMERAWL

// limit(): the latest emulated ns the clock may reach now (the next alarm, the PIO's next
// tick and the paced clock all bound it); the harness's.
function attachSpinSkip(mcu, cycleNanos, limit) {
  const timer = mcu.peripherals[0x40054];
  const clock = mcu.clock;
  const core = mcu.core;
  const read = timer.readUint32;
  const pcs = [0, 0];                      // the last two reads' instruction addresses
  let lastAt = -Infinity;                  // emulated ns of the last read
  let since = 0;                           // ns at which the present run of reads began
  timer.readUint32 = function spinningRead(offset) {
    if (COUNTS.has(offset)) {
      const now = clock.nanosCounter;
      const pc = core.PC;                  // (already past this instruction)
      if (now - lastAt > NEAR_NS || (pc !== pcs[0] && pc !== pcs[1])) since = now;
      pcs[1] = pcs[0];
      pcs[0] = pc;
      lastAt = now;
      if (now - since >= SPIN_NS) {
        const until = Math.min(now + STEP_NS, limit() - cycleNanos);
        if (until > now) {
          clock.nanosCounter = until;
          lastAt = until;
        }
      }
    }
    return read.call(this, offset);
  };
}

module.exports = { attachSpinSkip };
