// The optional parts on the emulated board's pins, as the board file wires them:
//
// OLED: an SSD1306 on an I2C bus. It acknowledges its address (writes only, as the SSD1306 in
// I2C mode has nothing to read) and every byte; each finished write goes out as
//   I <ns> <hex bytes>            (the control byte first, as on the wire)
// for the host to feed its SSD1306 model. The RP2040 reaches it two ways, both answered:
// through its I2C block (rp2040js hands the block's transfers to callbacks and leaves the
// pins alone), and by bit-banging the pins (wireTarget below), as CircuitPython's busio.I2C
// does for the empty write that probes an address, which the block cannot send. A breakout
// carries pull-ups, so SDA and SCL read high while nobody pulls them low (CircuitPython
// refuses a bus without them). Sent "unplug", the OLED stops acknowledging, as a loose wire
// does.
//
// Piezo: the buzzer pin's PWM edges, timed on the emulator's clock. A rising edge a steady
// period after the last one is a tone; a change of period or duty, or the pin quiet for more
// than QUIET_PERIODS periods (duty 0 holds it low), ends it:
//   T <ns> <freq Hz> <duty per 65536>    a tone starts (frequency and duty from the edges)
//   T <ns> 0 0                           silence
'use strict';
const { GPIOPinState, I2CMode } = require('rp2040js');

const QUIET_PERIODS = 3;

function oled(mcu, config, emit) {
  let bytes = null;                            // the write in progress, if it is to us
  let answering = true;
  // What the OLED answers, on either way in: an ACK (true) or not.
  const target = {
    connect(address, mode) {
      const ours = answering && address === config.address && mode === I2CMode.Write;
      bytes = ours ? [] : null;
      return ours;
    },
    writeByte(value) {
      if (bytes !== null && answering) bytes.push(value);
      return bytes !== null && answering;
    },
    stop() {
      if (bytes?.length) {
        emit(`I ${Math.round(mcu.clock.nanos)} ${Buffer.from(bytes).toString('hex')}`);
      }
      bytes = null;
    },
  };

  const i2c = mcu.i2c[config.bus];
  i2c.onConnect = (address, mode) => i2c.completeConnect(target.connect(address, mode));
  i2c.onWriteByte = (value) => i2c.completeWrite(target.writeByte(value));
  i2c.onStop = () => {
    target.stop();
    i2c.completeStop();
  };
  wireTarget(mcu, config.sda, config.scl, target);
  return { unplug() { answering = false; } };
}

// I2C read off the pins, for a master that bit-bangs them. Both lines are open drain with the
// breakout's pull-ups: a line is low while the RP2040 drives it low (high while it drives it
// high) and, SDA, while the target acknowledges; else high, whatever the pin's own pulls (the
// breakout's 10k beat the RP2040's 50k pull-down, which CircuitPython's pull-up check tries).
// The pins read that level. SDA falling while SCL is high is a START, rising a STOP; a bit is
// SDA at SCL's rising edge, most significant first. After 8 bits the target answers: an ACK
// holds SDA low from SCL's falling edge until the 9th clock's falling edge. A NACK leaves the
// rest of the transfer unheard.
function wireTarget(mcu, sdaPin, sclPin, target) {
  const sda = mcu.gpio[sdaPin];
  const scl = mcu.gpio[sclPin];
  const levelOf = (pin, heldLow) => {
    const state = pin.value;
    if (state === GPIOPinState.Low) return 0;
    if (state === GPIOPinState.High) return 1;
    return heldLow ? 0 : 1;
  };
  let acking = false;
  let sdaLevel = levelOf(sda, false);
  let sclLevel = levelOf(scl, false);
  sda.setInputValue(!!sdaLevel);
  scl.setInputValue(!!sclLevel);
  let transfer = false;                        // between a START and its STOP
  let listening = false;                       // the target takes in the byte being clocked
  let addressed = false;                       // the address byte is through: data follows
  let clocks = 0;                              // SCL pulses of this byte: 8 bits, then the ACK
  let value = 0;

  function updateSda() {
    const level = levelOf(sda, acking);
    if (level === sdaLevel) return;
    sdaLevel = level;
    sda.setInputValue(!!level);
    if (!sclLevel) return;                     // the data changing between clocks
    if (transfer) target.stop();               // a STOP, or a repeated START ending a write
    transfer = listening = level === 0;        // a START
    addressed = false;
    clocks = 0;
    value = 0;
  }

  function updateScl() {
    const level = levelOf(scl, false);
    if (level === sclLevel) return;
    sclLevel = level;
    scl.setInputValue(!!level);
    if (!listening) return;
    if (level) {
      clocks += 1;
      if (clocks <= 8) value = (value << 1) | sdaLevel;
    } else if (clocks === 8) {
      acking = addressed ? target.writeByte(value)
        : target.connect(value >> 1, value & 1 ? I2CMode.Read : I2CMode.Write);
      addressed = true;
      updateSda();
    } else if (clocks === 9) {
      listening = acking;
      acking = false;
      clocks = 0;
      value = 0;
      updateSda();
    }
  }

  sda.addListener(updateSda);
  scl.addListener(updateScl);
}

function piezo(mcu, pin, emit) {
  const clock = mcu.clock;
  let lastRise = null;
  let lastFall = null;
  let period = 0;                              // ns between the last two rising edges
  let high = 0;                                // ns high in the last period
  let tone = null;                             // [freq, duty] sounding, or null
  const quiet = clock.createAlarm(() => stop(lastRise + period));

  function stop(at) {
    if (tone) emit(`T ${Math.round(at)} 0 0`);
    tone = null;
    lastRise = null;
    period = 0;
  }

  mcu.gpio[pin].addListener((state) => {
    const now = clock.nanos;
    if (state === 1) {                         // rising
      if (lastRise !== null) {
        const p = now - lastRise;
        if (lastFall !== null && lastFall > lastRise) high = lastFall - lastRise;
        if (period && Math.abs(p - period) <= period / 100) {
          const freq = Math.round(1e9 / p);
          const duty = Math.round(65536 * high / p);
          if (!tone || tone[0] !== freq || Math.abs(tone[1] - duty) > 656) {
            if (tone) emit(`T ${Math.round(lastRise - period)} 0 0`);
            tone = [freq, duty];
            emit(`T ${Math.round(lastRise - period)} ${freq} ${duty}`);
          }
        }
        period = p;
      }
      lastRise = now;
      quiet.cancel();
      if (period) quiet.schedule(period * QUIET_PERIODS);
    } else if (state === 0) {
      lastFall = now;
    }
  });
}

module.exports = { oled, piezo };
