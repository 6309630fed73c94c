// PIO timing for rp2040js 1.4.1, on the emulated clock.
//
// rp2040js (dist/cjs/peripherals/pio.js) steps the PIO from RPPIO.run(), a setTimeout loop
// apart from the emulated clock, one instruction per state machine per step, disabled ones
// included; SMx_CLKDIV is stored but never used, and StateMachine counts `cycles` (delays
// included) without ever waiting on them. A program timed by its clock divider and delay
// cycles (neopixel_write on CircuitPython, a sampling loop) then runs at the wrong speed.
//
// Here each enabled state machine ticks at the system clock / (INT + FRAC/256), each tick on
// a system clock edge (RP2040 datasheet, PIO "Clock Dividers"), runs one instruction a tick
// and sits out the instruction's delay cycles after it; a stalled instruction's delay starts
// when the stall ends (datasheet, WAIT: "like all stalling instructions, delay cycles begin
// after the instruction completes"). rp2040js's own instruction semantics are
// kept. Times are in 1/256 of a system cycle, so a fractional divider adds up exactly.
'use strict';
const { StateMachine, RPPIO } = require('rp2040js');

const WAIT_PIN = 1;                          // rp2040js WaitType.Pin

const CTRL = 0x000;

function divider(sm) {
  const whole = sm.clockDivInt || 65536;            // SMx_CLKDIV: INT 0 means 65536
  return whole * 256 + sm.clockDivFrac;
}

function delayOf(sm, opcode) {
  return ((opcode >> 8) & 0x1f) & ((1 << (5 - sm.sidesetCount)) - 1);
}

// Once per process: the prototype patches that let the timing below see state changes.
let patched = false;
function patchPrototypes() {
  if (patched) return;
  patched = true;
  // rp2040js's own free-running loop is not used: the state machines tick in attachPioTiming.
  RPPIO.prototype.run = function run() { this.stopped = false; };
  // A stall ends (FIFO, IRQ or pin, often from the CPU's side): the stalled instruction's
  // delay cycles follow, and a parked state machine ticks again.
  const checkWait = StateMachine.prototype.checkWait;
  StateMachine.prototype.checkWait = function patchedCheckWait() {
    if (!this.waiting) return;
    checkWait.call(this);
    if (!this.waiting) {
      this.busy = Math.max(this.waitDelay , 0);
      if (this.timing) this.timing.unpark(this);
    }
  };
  // Every FIFO operation passes through these two: counted, so that a repeating state is
  // known to have moved no data (see idle below).
  const updateTx = StateMachine.prototype.updateDMATx;
  StateMachine.prototype.updateDMATx = function patchedUpdateDMATx() {
    this.fifoOps = (this.fifoOps || 0) + 1;
    updateTx.call(this);
  };
  const updateRx = StateMachine.prototype.updateDMARx;
  StateMachine.prototype.updateDMARx = function patchedUpdateDMARx() {
    this.fifoOps = (this.fifoOps || 0) + 1;
    updateRx.call(this);
  };
  const restart = StateMachine.prototype.restart;
  StateMachine.prototype.restart = function patchedRestart() {
    restart.call(this);
    this.busy = 0;
    if (this.timing) this.timing.unpark(this);
  };
  StateMachine.prototype.clkDivRestart = function clkDivRestart() {
    if (this.timing && this.enabled) this.timing.restartDivider(this);
  };
  const checkChangedPins = RPPIO.prototype.checkChangedPins;
  RPPIO.prototype.checkChangedPins = function patchedCheckChangedPins() {
    if ((this.oldPinDirections ^ this.pinDirections) | (this.oldPinValues ^ this.pinValues)) {
      this.pinChanges = (this.pinChanges || 0) + 1;
    }
    checkChangedPins.call(this);
  };
  const write = RPPIO.prototype.writeUint32;
  RPPIO.prototype.writeUint32 = function patchedWrite(offset, value) {
    const was = offset === CTRL ? this.machines.map((sm) => sm.enabled) : null;
    write.call(this, offset, value);
    if (!this.timing) return;
    if (was) {
      this.machines.forEach((sm, k) => {
        if (sm.enabled && !was[k]) this.timing.schedule(sm);
        else if (!sm.enabled) this.timing.unschedule(sm);
      });
    }
    // pio_sm_exec (SMx_INSTR) may have ended or begun a stall.
    this.checkChangedPins();
  };
  const stop = RPPIO.prototype.stop;
  RPPIO.prototype.stop = function patchedStop() {
    stop.call(this);
    if (this.timing) for (const sm of this.machines) this.timing.unschedule(sm);
  };
}

function attachPioTiming(mcu, cycleNanos) {
  patchPrototypes();
  const clock = mcu.clock;
  const core = mcu.core;
  const active = [];                       // enabled, not parked: they tick
  const now256 = () => Math.floor((clock.nanos / cycleNanos) * 256);

  const timing = {
    // The earliest tick due (next()), kept up to date by every change below: the emulation
    // loop reads it after each CPU instruction.
    due: Infinity,
    dueNanos: Infinity,
    // The next tick of an enabled state machine: one divider period from now.
    schedule(sm) {
      sm.due = now256() + divider(sm);
      sm.busy = 0;
      sm.parked = false;
      if (!active.includes(sm)) active.push(sm);
      refresh();
    },
    restartDivider(sm) {
      sm.due = now256() + divider(sm);
      refresh();
    },
    unschedule(sm) {
      sm.parked = false;
      const at = active.indexOf(sm);
      if (at >= 0) active.splice(at, 1);
      refresh();
    },
    // A state machine stalled on a FIFO or an IRQ flag does nothing until rp2040js ends the
    // stall (writeFIFO, readFIFO, irqUpdated all call checkWait): it leaves the tick list.
    park(sm) {
      sm.parked = true;
      const at = active.indexOf(sm);
      if (at >= 0) active.splice(at, 1);
      refresh();
    },
    unpark(sm) {
      if (!sm.parked || !sm.enabled) return;
      sm.parked = false;
      const div = divider(sm);
      const now = now256();
      if (sm.due < now) sm.due += Math.ceil((now - sm.due) / div) * div;   // same phase
      active.push(sm);
      refresh();
    },
    // The earliest tick due, or Infinity.
    next() {
      let due = Infinity;
      for (const sm of active) if (sm.due < due) due = sm.due;
      return due;
    },
    // Run every tick due by `limit` in time order, each at its own time on the clock (the
    // ring decoder times the pin's edges with it); the clock is put back afterwards.
    catchUp(limit) {
      const saved = clock.nanosCounter;
      for (;;) {
        const sm = earliest(limit);
        if (!sm) break;
        clock.nanosCounter = Math.ceil(sm.due / 256) * cycleNanos;
        tick(sm);
      }
      clock.nanosCounter = saved;
      refresh();
    },
    // The CPU sleeps (WFI/WFE) until `untilNanos` (its next alarm): tick through the gap.
    // Stops early, at that tick's time, when a tick wakes the CPU (a PIO interrupt) or
    // schedules an alarm (a DMA transfer). With one state machine running, a state that
    // repeats with no FIFO operation, no pin change and no IRQ flag change in between is a
    // loop on unchanging inputs (inputs change only in alarms while the CPU sleeps): whole
    // loops are skipped at once, keeping the phase. Returns the time reached (ns).
    idle(untilNanos) {
      const start = clock.nanosCounter;
      const limit = Math.floor((untilNanos / cycleNanos) * 256) - 1;
      let seen = active.length === 1 ? new Map() : null;
      let count = 0;
      let reached = start;
      let early = false;
      for (;;) {
        const sm = earliest(limit);
        if (!sm) break;
        if (active.length !== 1) seen = null;
        if (seen && sm.busy === 0 && !sm.waiting) {
          const pio = sm.pio;
          const key = `${sm.pc} ${sm.x} ${sm.y} ${sm.inputShiftReg} ${sm.inputShiftCount} ${
            sm.outputShiftReg} ${sm.outputShiftCount} ${sm.fifoOps} ${pio.irq} ${
            pio.pinChanges} ${sm.execValid}`;
          const before = seen.get(key);
          if (before !== undefined) {
            const period = sm.due - before;
            sm.due += Math.floor((limit - sm.due) / period) * period;
            seen = null;
            continue;
          }
          if (++count > 256) seen = null;
          else seen.set(key, sm.due);
        }
        reached = Math.ceil(sm.due / 256) * cycleNanos;
        clock.nanosCounter = reached;
        tick(sm);
        const alarm = clock.nextAlarm;
        if (!core.waiting || (alarm && alarm.nanos < untilNanos)) {
          early = true;
          break;
        }
      }
      clock.nanosCounter = start;
      refresh();
      return early ? reached : untilNanos;
    },
  };

  function refresh() {
    timing.due = timing.next();
    // the same moment in ns, 1 ns early (rounding): the emulation loop's cheap first test
    timing.dueNanos = (timing.due / 256) * cycleNanos - 1;
  }

  function earliest(limit) {
    let found = null;
    for (const sm of active) if (sm.due <= limit && (!found || sm.due < found.due)) found = sm;
    return found;
  }

  function tick(sm) {
    sm.due += divider(sm);
    if (sm.busy > 0) {
      sm.busy--;
      return;
    }
    if (sm.waiting) {
      sm.checkWait();
    } else {
      const opcode = sm.pio.instructions[sm.pc];
      sm.updatePC = true;
      sm.executeInstruction(opcode);
      if (sm.updatePC) sm.nextPC();
      if (!sm.waiting) sm.busy = delayOf(sm, opcode);
    }
    // A pin wait is checked every tick (an input may change without rp2040js calling
    // checkWait, e.g. its pad's input enable); FIFO and IRQ stalls are parked.
    if (sm.waiting && sm.waitType !== WAIT_PIN) timing.park(sm);
    sm.pio.checkChangedPins();
  }

  for (const pio of mcu.pio) {
    pio.timing = timing;
    pio.pinChanges = 0;
    for (const sm of pio.machines) {
      sm.timing = timing;
      sm.busy = 0;
      sm.parked = false;
      sm.due = Infinity;
      sm.fifoOps = 0;
      if (sm.enabled) timing.schedule(sm);
    }
  }
  return timing;
}

module.exports = { attachPioTiming };
